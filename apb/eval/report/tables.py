"""The report's tables as text: coverage by domain x agent (AutoPlanBench's Table 2 layout, with how many of the
split's problems ran and the paper's figures only where the run covered the paper's problems), metrics and cost.

Every cell is a readable string: a missing value is "–" or "not run", never `None` or empty.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from apb.domains.paper import PAPER_DOMAIN_OF_FOLDER, TABLE2_AGENTS, table2_figure
from apb.eval.metrics import Episode, mean_se

CONTRACT_KEYS = ("domain", "agent", "model", "split", "episodes", "solved", "acc", "acc0", "lf", "invalid_actions",
                 "llm_calls", "input_tokens", "output_tokens", "cost_usd", "errors")
PAPER_AGENT_NAMES = TABLE2_AGENTS  # apb agent -> the paper's name (its Table 2 column)
PAPER_LLM_AGENTS = ("basic", "cot", "act", "react", "basic-pddl", "act-pddl")  # GPT-4 in the paper's Table 2
PAPER_PLANNERS = {"bfs": "BrFS: breadth-first search", "astar": "A*+LM-cut: A* with the LM-cut heuristic",
                  "gbfs": "GBFS+FF: greedy best-first search with the FF heuristic"}
PAPER_SPLITS = {"test"}  # bundled p01-p20, AutoPlanBench's 20 test problems (orig without the few-shot one)
PAPER_PROBLEMS = 20  # Table 2 counts solved problems out of these 20 per domain
NO_MODEL = "no LLM"


def paper_domain(domain: str, env_ids: set[str]) -> str:
    """The paper's name for a run's domain: AutoPlanBench's folders `gripper` and `movie-complex` are its Grippers
    and Movie (a bundled domain keeps its name: bundled `gripper` is a scaling set, not the paper's Grippers)."""
    if any(str(e).startswith("dataset:") for e in env_ids):
        return PAPER_DOMAIN_OF_FOLDER.get(domain.lower(), domain)
    return domain


def domain_label(domain: str) -> str:
    """Paper spelling of a domain name (`grippers` -> `Grippers`)."""
    return domain[:1].upper() + domain[1:] if domain else "unknown domain"


def agent_label(agent: str) -> str:
    """The paper's name of an agent (`bfs` -> `BrFS`), else the apb name."""
    return PAPER_AGENT_NAMES.get(agent.lower(), agent) if agent else "unknown agent"


def model_label(model: str | None) -> str:
    """A model spec as shown to readers: symbolic agents have none."""
    return model or NO_MODEL


def agent_order(agent: str) -> tuple[int, str]:
    """The paper's column order, then other agents by name."""
    names = list(PAPER_AGENT_NAMES)
    return (names.index(agent), "") if agent in names else (len(names), agent)


def num(value: float | None, digits: int = 2) -> str:
    if value is None:
        return "–"
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.{digits}f}"


def mean_se_text(mean: float | None, se: float | None, digits: int = 1) -> str:
    if mean is None:
        return "–"
    return f"{mean:.{digits}f}" + (f" ± {se:.{digits}f}" if se is not None else "")


def pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def cost_text(row: dict[str, Any]) -> str:
    if row["cost_usd"] is None:
        return f"n/a ({row['unpriced']} unpriced)" if row.get("unpriced") else "n/a"
    return f"${row['cost_usd']:.4f}"


@dataclass(frozen=True)
class Coverage:
    """Which problems of a split one (domain, agent) cell ran: `covered` distinct problems, out of `split_size`
    (None: not recorded, trajectories of older apb versions); `every_seed` is False when a seed ran fewer."""

    covered: int
    split_size: int | None
    every_seed: bool = True

    def text(self) -> str:
        noun = "problem" if (self.split_size or self.covered) == 1 else "problems"
        text = f"{self.covered} of {self.split_size} {noun}" if self.split_size else f"{self.covered} {noun}"
        return text if self.every_seed else text + ", fewer in some seeds"

    @property
    def paper_problems(self) -> bool:
        """The run covered the paper's problem set: all its problems, every seed, in a split of that size."""
        return self.covered == PAPER_PROBLEMS and self.split_size in (None, PAPER_PROBLEMS) and self.every_seed


def cell_coverage(episodes: list[Episode]) -> Coverage:
    """The coverage of one cell's episodes; the split size is the largest recorded (None if none is)."""
    per_seed: dict[Any, set[str]] = defaultdict(set)
    for e in episodes:
        per_seed[e.seed].add(str(e.header.get("problem_id") or e.header.get("problem")))
    covered = set().union(*per_seed.values()) if per_seed else set()
    sizes = [int(s) for e in episodes if isinstance(s := e.header.get("split_size"), int)]
    return Coverage(len(covered), max(sizes) if sizes else None, all(len(p) == len(covered) for p in per_seed.values()))


@dataclass
class CoverageTable:
    """Solved problems by domain x agent for one (model, split), with what each cell covered."""

    model: str
    split: str
    domains: list[str]
    agents: list[str]
    cells: dict[tuple[str, str], dict[str, Any]]
    sums: dict[str, tuple[float | None, float | None]]
    paper: dict[tuple[str, str], float] = field(default_factory=dict)
    coverage: dict[tuple[str, str], Coverage] = field(default_factory=dict)

    @property
    def show_paper(self) -> bool:
        return self.split.lower() in PAPER_SPLITS

    def comparable(self, domain: str, agent: str) -> bool:
        """The paper has a figure for the cell and the run covered the same problems (like for like)."""
        cover = self.coverage.get((domain, agent))
        return self.show_paper and (domain, agent) in self.paper and cover is not None and cover.paper_problems

    def cell(self, domain: str, agent: str) -> str:
        row = self.cells.get((domain, agent))
        if row is None:
            return "not run"
        text = mean_se_text(row["solved_mean"], row["solved_se"])
        return text + (f" [{self.coverage[(domain, agent)].text()}]" if self.domain_coverage(domain) is None else "")

    def paper_cell(self, domain: str, agent: str) -> str:
        return num(self.paper[(domain, agent)], 1) if self.comparable(domain, agent) else ""

    def paper_sum(self, agent: str) -> float | None:
        """The paper's sum over this table's domains, only when every one of them is comparable."""
        if not self.domains or not all(self.comparable(d, agent) for d in self.domains):
            return None
        return sum(self.paper[(d, agent)] for d in self.domains)

    def domain_coverage(self, domain: str) -> Coverage | None:
        """The coverage all agents share in a domain, None when it varies by agent."""
        covers = {self.coverage[(domain, a)] for a in self.agents if (domain, a) in self.coverage}
        return covers.pop() if len(covers) == 1 else None

    def total_coverage(self) -> str:
        covers = [self.domain_coverage(d) for d in self.domains]
        if any(c is None for c in covers):
            return "varies by agent"
        covered = sum(c.covered for c in covers if c)
        sizes = [c.split_size for c in covers if c]
        return Coverage(covered, sum(sizes) if all(sizes) else None).text()  # type: ignore[arg-type]

    def not_comparable(self) -> list[str]:
        """The cells with a paper figure that this run cannot be set beside (it covered other problems), with what
        they covered: a whole domain (`Ferry (3 of 20 problems)`) or single agents (`Ferry Basic (2 problems)`)."""
        if not self.show_paper:
            return []
        out = []
        for d in self.domains:
            figures = [a for a in self.agents if (d, a) in self.paper]
            bad = [a for a in figures if not self.comparable(d, a)]
            if bad and len(bad) == len(figures) and (cover := self.domain_coverage(d)):
                out.append(f"{domain_label(d)} ({cover.text()})")
            else:
                out += [f"{domain_label(d)} {agent_label(a)} ({self.coverage[(d, a)].text()})" for a in bad]
        return out


def coverage_tables(rows: list[dict[str, Any]], episodes: list[Episode]) -> list[CoverageTable]:
    """One coverage table per (model, split); sums are per-seed totals over domains, then mean ± se."""
    tables = []
    for model, split in sorted({(r["model"], r["split"]) for r in rows}):
        mine = [r for r in rows if (r["model"], r["split"]) == (model, split)]
        domains = sorted({r["domain"] for r in mine})
        agents = sorted({r["agent"] for r in mine}, key=agent_order)
        ours = [e for e in episodes if (e.key[2], e.key[3]) == (model, split)]  # the same normalised keys as rows
        sums = {}
        for agent in agents:
            per_seed: dict[Any, int] = {}
            for e in ours:
                if e.key[1] == agent:
                    per_seed[e.seed] = per_seed.get(e.seed, 0) + e.success
            sums[agent] = mean_se([float(v) for v in per_seed.values()])
        sources: dict[str, set[str]] = defaultdict(set)
        by_cell: dict[tuple[str, str], list[Episode]] = defaultdict(list)
        for e in ours:
            sources[e.key[0]].add(str(e.header.get("env_id") or ""))
            by_cell[(e.key[0], e.key[1])].append(e)
        paper = {(d, a): v for d in domains for a in agents
                 if (v := table2_figure(paper_domain(d, sources[d]), a)) is not None}
        tables.append(CoverageTable(model, split, domains, agents, {(r["domain"], r["agent"]): r for r in mine},
                                    sums, paper, {cell: cell_coverage(eps) for cell, eps in by_cell.items()}))
    return tables


def coverage_title(table: CoverageTable) -> str:
    return f"Coverage: solved problems ({model_label(table.model)}, split {table.split})"


def coverage_matrix(table: CoverageTable) -> tuple[list[str], list[list[str]]]:
    """Header and rows of a coverage table as text (run value, then the paper's in brackets where comparable)."""
    header = ["domain", "problems run", *(agent_label(a) for a in table.agents)]
    rows = []
    for domain in table.domains:
        cells = []
        for agent in table.agents:
            paper = table.paper_cell(domain, agent)
            cells.append(table.cell(domain, agent) + (f" (paper {paper})" if paper else ""))
        cover = table.domain_coverage(domain)
        rows.append([domain_label(domain), cover.text() if cover else "varies by agent", *cells])
    sums = []
    for agent in table.agents:
        paper = table.paper_sum(agent)
        sums.append(mean_se_text(*table.sums[agent]) + (f" (paper {num(paper, 1)})" if paper is not None else ""))
    rows.append(["Sum", table.total_coverage(), *sums])
    return header, rows


def paper_columns_text(agents: list[str]) -> str:
    """What the paper's figures in these columns are: GPT-4 runs, a random-action baseline, or symbolic planners."""
    parts = []
    llm = [agent_label(a) for a in agents if a in PAPER_LLM_AGENTS]
    if llm:
        parts.append(f"{', '.join(llm)}: GPT-4")
    if "random" in agents:
        parts.append("random: random actions for 24 steps, mean of 5 runs")
    planners = [PAPER_PLANNERS[a] for a in agents if a in PAPER_PLANNERS]
    if planners:
        parts.append(", ".join(planners) + " (symbolic planners, 30 min and 8 GB per problem)")
    return "; ".join(parts)


def coverage_caption(table: CoverageTable) -> str:
    """The note under a coverage table: what the numbers are, what the paper's are, and what is not comparable."""
    text = ("Solved problems, mean over seeds ± standard error; 'problems run' is how many of the split's problems "
            "the run covered.")
    shown = [a for a in table.agents if any(table.comparable(d, a) for d in table.domains)]
    if shown:
        text += (f" In brackets: AutoPlanBench's Table 2, solved out of its {PAPER_PROBLEMS} test problems "
                 f"({paper_columns_text(shown)}).")
    if missing := table.not_comparable():
        text += (f" The paper's figures are not comparable here, so none is shown: {', '.join(missing)}. The paper "
                 f"counts solved problems out of all {PAPER_PROBLEMS} test problems and publishes no per-problem "
                 "results; scaling its count would assume every problem is equally hard, and its problems grow in "
                 f"size. Run all {PAPER_PROBLEMS} (--problems all) with every seed to compare.")
    return text


def metric_rows(rows: list[dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    header = ["domain", "agent", "model", "split", "episodes", "seeds", "solved", "Acc", "Acc0", "LF",
              "invalid actions", "look-arounds", "errors", "stop reasons"]
    body = [[domain_label(r["domain"]), agent_label(r["agent"]), model_label(r["model"]), r["split"] or "–",
             str(r["episodes"]), str(r["seeds"]), str(r["solved"]),
             *(("error", "error") if r["episodes"] and r["errors"] == r["episodes"] else  # no accuracy, not 0%
               (pct(r["acc"]) + (f" ± {pct(r['acc_se'])}" if r["acc_se"] else ""), pct(r["acc0"]))),
             num(r["lf"]) + ("*" if r.get("lf_gold_n") else ""), str(r["invalid_actions"]), str(r["look_arounds"]),
             str(r["errors"]), ", ".join(f"{k}: {v}" for k, v in r["stop_reasons"].items()) or "–"] for r in rows]
    if any(r.get("plan_cost") is not None for r in rows):  # action costs: mean plan cost, cost-normalised LF
        at = header.index("LF") + 1
        header[at:at] = ["plan cost", "LF (cost)"]
        for r, line in zip(rows, body):
            line[at:at] = [num(r.get("plan_cost")), num(r.get("lf_cost"))]
    return header, body


def cost_rows(rows: list[dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    header = ["domain", "agent", "model", "LLM calls", "calls by role", "input tokens", "output tokens",
              "cached tokens", "cost"]
    body = [[domain_label(r["domain"]), agent_label(r["agent"]), model_label(r["model"]), str(r["llm_calls"]),
             ", ".join(f"{k}: {v}" for k, v in r["llm_calls_by_role"].items() if v) or "none",
             str(r["input_tokens"]), str(r["output_tokens"]), str(r["cached_tokens"]), cost_text(r)] for r in rows]
    return header, body
