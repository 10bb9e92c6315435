"""The report's episode viewer: a filterable list of every episode (domain, agent, outcome) and, for the one
opened, its steps beside the picture of each state. Each episode's details (steps, LLM outputs, translations,
SVG pictures) are embedded as gzip-compressed, base64-encoded JSON and unpacked by the browser only when the
episode is opened (DecompressionStream: no library, no network), so the page stays one file of a few MB for
thousands of episodes and opens at once."""

from __future__ import annotations

import base64
import gzip
import html
import json
from importlib import resources
from typing import Any
from urllib.parse import quote

from apb.eval.metrics import Episode
from apb.eval.report.pictures import EpisodePictures
from apb.eval.report.plots import length_text
from apb.eval.report.tables import agent_label, domain_label, model_label
from apb.eval.trajectory import json_text


def outcome(episode: Episode) -> str:
    if episode.error:
        return "error"
    return "solved" if episode.success else "not solved"


def _events(step: dict[str, Any]) -> tuple[list[dict], list[dict]]:
    outputs, translations = [], []
    for event in step.get("events") or []:
        if event.get("type") == "llm":
            outputs.append({"role": str(event.get("role") or "LLM"), "text": str(event.get("text") or "")})
        elif event.get("type") == "translation":
            translations.append({"method": str(event.get("method") or "translator"),
                                 "input": str(event.get("input") or ""), "action": event.get("action")})
    return outputs, translations


def episode_detail(episode: Episode, pictures: list[str], note: str,
                   changing: list[str] | None = None) -> dict[str, Any]:
    """Everything the viewer shows of one episode (JSON-ready); `changing`: the initial facts some step changes
    (step 0 shows them first, the whole initial situation folded)."""
    h, f = episode.header, episode.footer
    steps = []
    for number, step in enumerate(episode.steps, start=1):
        outputs, translations = _events(step)
        steps.append({"n": number, "action": step.get("action"), "observation": step.get("observation"),
                      "valid": bool(step.get("action_valid")), "failure": step.get("failure_kind"),
                      "outputs": outputs, "translations": translations,
                      "picture": pictures[number] if number < len(pictures) else None})
    return {"initial_state": h.get("initial_state"), "goal": h.get("goal"), "length": length_text(episode),
            "file": episode.path.name, "error": episode.error, "detail": f.get("detail"),
            "stop": f.get("stop_reason"), "picture": pictures[0] if pictures else None, "note": note,
            "changing": changing, "steps": steps}


def _pack(data: dict[str, Any]) -> str:
    raw = json_text(data, compact=True).encode("utf-8")
    return base64.b64encode(gzip.compress(raw, compresslevel=6, mtime=0)).decode("ascii")


def unpack(blob: str) -> dict[str, Any]:
    """The inverse of the page's packing (for tests and tools reading a report)."""
    return json.loads(gzip.decompress(base64.b64decode(blob)).decode("utf-8"))


def read_viewer(page: str) -> list[dict[str, Any]]:
    """Every episode of a report.html's viewer: its summary with its unpacked details under "detail"."""
    listing = page.split("<script type='application/json' id='apb-episodes'>", 1)[1].split("</script>", 1)[0]
    episodes = json.loads(listing)
    for summary in episodes:
        marker = f"<script type='application/octet-stream' id='apb-episode-{summary['i']}'>"
        summary["detail"] = unpack(page.split(marker, 1)[1].split("</script>", 1)[0])
    return episodes


def viewer_html(episodes: list[Episode]) -> str:
    """The viewer's section: filters, the list (built by the page's script from the summaries) and the data."""
    order = sorted(episodes, key=lambda e: (e.key, str(e.header.get("problem_id")), str(e.seed)))
    drawer = EpisodePictures()
    summaries, blobs = [], []
    for index, episode in enumerate(order):
        domain, agent, model, _ = episode.key
        f = episode.footer
        summaries.append({"i": index, "id": episode.episode_id, "domain": domain, "agent": agent,
                          "domain_label": domain_label(domain), "agent_label": agent_label(agent),
                          "model": model_label(model), "problem": str(episode.header.get("problem_id")
                                                                      or episode.header.get("problem") or "?"),
                          "seed": episode.seed, "outcome": outcome(episode), "steps": int(f.get("steps") or 0),
                          "invalid": int(f.get("invalid_actions") or 0)})
        pictures, note, changing = drawer.draw(episode)
        blobs.append(f"<script type='application/octet-stream' id='apb-episode-{index}'>"
                     f"{_pack(episode_detail(episode, pictures, note, changing))}</script>")
    listing = json_text(summaries).replace("<", "\\u003c")
    script = resources.files("apb.eval.report").joinpath("templates/viewer.js").read_text(encoding="utf-8")
    return "\n".join([
        "<h2 id='episodes'>Episodes</h2>",
        "<p class='note'>Open an episode to see its steps beside the picture of each state (orange: what the "
        "action changed; red: what a failed action needed; green: goals not yet reached). Filter by domain, agent and "
        "outcome; the coverage table's cells link here, and #episode/ID links to one episode (the address shows it "
        "once an episode is open).</p>",
        "<noscript><p class='fail'>The episode viewer needs JavaScript.</p></noscript>",
        "<div id='viewer'><div class='filters'>"
        "<label>domain <select id='f-domain'><option value=''>all</option></select></label> "
        "<label>agent <select id='f-agent'><option value=''>all</option></select></label> "
        "<label>outcome <select id='f-outcome'><option value=''>all</option><option>solved</option>"
        "<option>not solved</option><option>error</option></select></label> "
        f"<span id='f-count' class='note'>{len(order)} episodes</span></div>",
        "<table id='episode-list'><thead><tr><th class='name'>domain</th><th class='name'>agent</th>"
        "<th class='name'>model</th><th>problem</th><th>seed</th><th>outcome</th><th>steps</th><th>invalid</th>"
        "</tr></thead><tbody></tbody></table><div id='episode-view'></div></div>",
        f"<script type='application/json' id='apb-episodes'>{listing}</script>",
        *blobs,
        f"<script>{script}</script>",
    ])


def cell_link(domain: str, agent: str, text: str) -> str:
    """A coverage cell's text linking to its episodes in the viewer."""
    target = f"#episodes/domain={quote(domain, safe='')}&agent={quote(agent, safe='')}"
    return f"<a class='cell' href='{html.escape(target, quote=True)}'>{html.escape(text)}</a>"
