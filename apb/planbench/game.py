"""A Gymnasium game per PlanBench domain family, worded as the config words it: its `domain_intro`, its actions'
and predicates' templates (mystery and obfuscated names included), its object names (`the red block`, `object a`,
`package_0`). `gymnasium.make("apb/PlanBench-MysteryBlocksworld-v0", config="mystery_blocksworld_3")`.

The game is apb's PDDLTextEnv on the config's instances, with an nl.yaml written from the config (apb.nl's format)
and the objects named by their PlanBench words: an object's words minus the part every object shares
(`red block` -> `red`, ` block` moving into the templates), so the text reads as PlanBench's prompts do. Both are
written once into apb's cache folder.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

import yaml

from apb.datasets.planbench import GAME_FAMILIES, PlanBenchConfig, load_config
from apb.engine import load_domain, load_problem
from apb.planbench.wording import object_text

GAME_FORMAT = 1  # bump when what game_folder writes changes (the cache folder's name includes it)
_WORD = re.compile(r"[^A-Za-z0-9_-]+")


def _affixes(texts: list[str]) -> tuple[str, str]:
    """(prefix, suffix) every object text shares at a word boundary (`object `, ` block`), else empty."""
    words = [t.split(" ") for t in texts]
    prefix = suffix = ""
    if len(words) > 1 and all(len(w) > 1 and w[0] == words[0][0] for w in words):
        prefix = words[0][0] + " "
    if len(words) > 1 and all(len(w) > 1 and w[-1] == words[0][-1] for w in words):
        suffix = " " + words[0][-1]
    return prefix, suffix


def object_names(config: PlanBenchConfig, objects: list[str]) -> tuple[dict[str, str], str, str]:
    """PDDL object -> its game name (its PlanBench words without the shared prefix/suffix), and that prefix and
    suffix."""
    texts = {o: object_text(o, config.data) for o in objects}
    prefix, suffix = _affixes(list(texts.values()))
    names = {}
    for obj, text in texts.items():
        core = text[len(prefix):len(text) - len(suffix)] if suffix else text[len(prefix):]
        names[obj] = _WORD.sub("_", core) or obj
    if len(set(names.values())) != len(names):  # two objects worded alike: keep the PDDL names
        return {o: o for o in objects}, "", ""
    return names, prefix, suffix


def _template(text: str, params: list[str], prefix: str, suffix: str) -> str | None:
    """A config template (`stack the {} on top of the {}`) with apb's placeholders, or None when it does not word
    every parameter."""
    if text.count("{}") != len(params) or (not params and not text):
        return None
    out = text
    for param in params:
        out = out.replace("{}", f"{prefix}{{{param}}}{suffix}", 1)
    return out


def nl_yaml(config: PlanBenchConfig, prefix: str, suffix: str) -> dict:
    """The config's wording in apb's nl.yaml format."""
    domain = load_domain(config.domain_text())
    data = config.data
    predicates, actions = {}, {}
    for name, schema in domain.predicates.items():
        params = [p.name.lstrip("?") for p in schema.parameters]
        text = _template(str((data.get("predicates") or {}).get(name, "")), params, prefix, suffix)
        if text:  # PlanBench words no negated facts: apb's feedback says "it is not the case that ..."
            predicates[name] = {"text": text, "negated": f"it is not the case that {text}"}
    for action in domain.actions:
        params = [p.name.lstrip("?") for p in action.parameters]
        text = _template(str((data.get("actions") or {}).get(action.name, "")), params, prefix, suffix)
        if text:
            actions[action.name] = {"text": text}
    out = {"format": 1, "domain": domain.name, "predicates": predicates, "actions": actions}
    if str(data.get("domain_intro") or "").strip():  # sokoban's config words nothing: apb's own wording fills in
        out["intro"] = data["domain_intro"].strip()
    return out


def _rename(problem_text: str, names: dict[str, str]) -> str:
    def swap(match: re.Match) -> str:
        word = match.group(0)
        return names.get(word.lower(), word)
    body = problem_text.split("(:domain", 1)
    if len(body) < 2:
        return problem_text
    return body[0] + "(:domain" + re.sub(r"[A-Za-z][A-Za-z0-9_-]*", swap, body[1])


def game_folder(config: PlanBenchConfig) -> Path:
    """A folder holding the config's domain, its instances with objects named by their PlanBench words and the
    nl.yaml of its wording (written once into apb's cache)."""
    from apb.datasets.planbench import _cache_root

    digest = hashlib.sha256(f"{GAME_FORMAT}{yaml.safe_dump(config.data)}".encode()).hexdigest()[:12]
    folder = _cache_root().parent / "games" / f"{config.folder}-{config.name}-{digest}"
    if (folder / "nl.yaml").is_file():
        return folder
    domain = load_domain(config.domain_text())
    objects = set()
    texts = {}
    for i in config.instance_ids():
        text = config.instance_text(i)
        texts[i] = text
        objects.update(load_problem(text, domain).objects)
    names, prefix, suffix = object_names(config, sorted(objects))
    tmp = folder.with_name(f"{folder.name}.tmp{os.getpid()}")
    (tmp / "problems").mkdir(parents=True, exist_ok=True)
    (tmp / "domain.pddl").write_text(config.domain_text(), encoding="utf-8")
    for i, text in texts.items():
        (tmp / "problems" / f"instance-{i}.pddl").write_text(_rename(text, names), encoding="utf-8")
    (tmp / "nl.yaml").write_text(yaml.safe_dump(nl_yaml(config, prefix, suffix), sort_keys=False, width=1000),
                                 encoding="utf-8")
    try:
        tmp.rename(folder)
    except OSError:  # another process wrote it first
        import shutil

        shutil.rmtree(tmp, ignore_errors=True)
    return folder


def make_game(family: str, config: str | None = None, folder: str | None = None, **kwargs):
    """The PlanBench game of a family (Gymnasium's entry point): PDDLTextEnv on the config's worded folder."""
    from apb.envs.text_env import PDDLTextEnv

    cfg = load_config(config or GAME_FAMILIES[family], folder)
    where = game_folder(cfg)
    kwargs.setdefault("description", str(where / "nl.yaml"))
    return PDDLTextEnv(str(where), **kwargs)
