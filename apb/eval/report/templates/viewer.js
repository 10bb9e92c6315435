// apb report: the episode viewer. The list comes from the JSON summaries; an episode's details (steps, LLM
// outputs, SVG pictures) are gzip+base64 in <script id="apb-episode-N"> and unpacked only when it is opened.
// Text from trajectories is inserted with textContent only; the pictures are SVG that apb wrote (text escaped).
(function () {
  "use strict";
  const episodes = JSON.parse(document.getElementById("apb-episodes").textContent);
  const body = document.querySelector("#episode-list tbody");
  const view = document.getElementById("episode-view");
  const filters = {domain: document.getElementById("f-domain"), agent: document.getElementById("f-agent"),
                   outcome: document.getElementById("f-outcome")};
  const rows = [];

  function el(tag, text, cls) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }

  function options(select, pairs) {
    for (const [value, label] of pairs) {
      const option = el("option", label);
      option.value = value;
      select.appendChild(option);
    }
  }

  function unique(key, label) {
    const seen = new Map();
    for (const e of episodes) if (!seen.has(e[key])) seen.set(e[key], e[label]);
    return [...seen.entries()].sort((a, b) => String(a[1]).localeCompare(String(b[1])));
  }

  async function detail(index) {
    const blob = document.getElementById("apb-episode-" + index).textContent.trim();
    const bytes = Uint8Array.from(atob(blob), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return JSON.parse(await new Response(stream).text());
  }

  function picture(svg, label) {
    const box = el("div", null, "picture");
    if (svg) {
      box.innerHTML = svg;  // apb's own SVG
      box.setAttribute("aria-label", label);
    } else {
      box.appendChild(el("span", "no picture", "note"));
    }
    return box;
  }

  function pre(label, text) {
    const block = el("details");
    block.appendChild(el("summary", label));
    block.appendChild(el("pre", text));
    return block;
  }

  function stepRow(step) {
    const row = el("tr", null, step.valid ? "step" : "step invalid");
    row.appendChild(el("td", step.n));
    row.appendChild(el("td")).appendChild(picture(step.picture, "state after step " + step.n));
    const what = el("td", null, "name");
    what.appendChild(el("div", step.action, "action"));
    what.appendChild(el("div", step.valid ? "valid" : "invalid" + (step.failure ? " (" + step.failure + ")" : ""),
                        step.valid ? "ok" : "fail"));
    what.appendChild(el("div", step.observation, "feedback"));
    for (const t of step.translations) {
      what.appendChild(el("div", "translated by " + t.method + ": " + t.input + " \u2192 " + (t.action || "no action"),
                          "note"));
    }
    for (const o of step.outputs) what.appendChild(pre(o.role, o.text));
    row.appendChild(what);
    return row;
  }

  async function open(summary, row) {
    for (const r of rows) r.node.classList.remove("open");
    row.classList.add("open");
    view.textContent = "";
    const link = "#episode/" + encodeURIComponent(summary.id);
    if (location.hash !== link) history.replaceState(null, "", link);  // the address links to this episode
    const title = el("h3", [summary.domain_label, summary.agent_label, summary.model, summary.problem,
                            "seed " + summary.seed, summary.outcome].join(" \u00b7 "));
    title.id = "episode-title";
    const anchor = el("a", "link", "note");
    anchor.href = link;
    anchor.id = "episode-link";
    title.appendChild(document.createTextNode(" "));
    title.appendChild(anchor);
    view.appendChild(title);
    const d = await detail(summary.i);
    view.appendChild(el("p", "episode " + summary.id + "; " + d.length + "; " + summary.steps + " steps, " +
                        summary.invalid + " invalid; stop: " + (d.stop || "unknown") + "; file " + d.file, "note"));
    if (d.error) view.appendChild(el("p", "error: " + d.error, "fail"));
    if (d.note) view.appendChild(el("p", d.note, "note"));
    const table = el("table", null, "episode-steps");
    const head = el("tr");
    for (const h of ["step", "state", "action and feedback"]) head.appendChild(el("th", h));
    table.appendChild(head);
    const start = el("tr", null, "step");
    start.appendChild(el("td", 0));
    start.appendChild(el("td")).appendChild(picture(d.picture, "initial state"));
    const task = el("td", null, "name");
    task.appendChild(el("div", "Initial situation", "action"));
    if (d.changing) {  // the facts the episode changes, as they start; every fact (static ones too) folded below
      task.appendChild(el("div", "Facts that change in this episode, at the start: " +
                          (d.changing.length ? d.changing.join(" ") : "(none: no step changed the state)"),
                          "feedback changing"));
      task.appendChild(pre("the whole initial situation", d.initial_state || "(not recorded)"));
    } else {
      task.appendChild(el("div", d.initial_state || "(not recorded)", "feedback"));
    }
    task.appendChild(el("div", "Goal: " + (d.goal || "(not recorded)"), "feedback"));
    start.appendChild(task);
    table.appendChild(start);
    for (const step of d.steps) table.appendChild(stepRow(step));
    view.appendChild(table);
    const failed = table.querySelector("tr.invalid");
    view.scrollIntoView({block: "start"});
    if (failed) failed.classList.add("first-failure");
  }

  function apply() {
    let shown = 0;
    for (const {summary, node} of rows) {
      const ok = (!filters.domain.value || summary.domain === filters.domain.value) &&
                 (!filters.agent.value || summary.agent === filters.agent.value) &&
                 (!filters.outcome.value || summary.outcome === filters.outcome.value);
      node.hidden = !ok;
      shown += ok ? 1 : 0;
    }
    document.getElementById("f-count").textContent = shown + " of " + episodes.length + " episodes";
  }

  function route() {
    const hash = decodeURIComponent(location.hash || "");
    if (hash.startsWith("#episode/")) {  // one episode: #episode/<id>
      const id = hash.slice("#episode/".length);
      const found = rows.find((r) => String(r.summary.id) === id);
      if (!found) return;
      for (const select of Object.values(filters)) select.value = "";
      apply();
      open(found.summary, found.node);
      return;
    }
    if (!hash.startsWith("#episodes/")) return;
    const params = new URLSearchParams(location.hash.slice("#episodes/".length));
    for (const key of ["domain", "agent", "outcome"]) {
      const value = params.get(key);
      if (value !== null) filters[key].value = value;
    }
    apply();
    document.getElementById("episodes").scrollIntoView({block: "start"});
  }

  options(filters.domain, unique("domain", "domain_label"));
  options(filters.agent, unique("agent", "agent_label"));
  for (const summary of episodes) {
    const node = el("tr", null, "episode " + summary.outcome.replace(" ", "-"));
    node.tabIndex = 0;
    for (const value of [summary.domain_label, summary.agent_label, summary.model]) node.appendChild(el("td", value, "name"));
    for (const value of [summary.problem, summary.seed, summary.outcome, summary.steps, summary.invalid]) {
      node.appendChild(el("td", value));
    }
    node.addEventListener("click", () => open(summary, node));
    node.addEventListener("keydown", (event) => { if (event.key === "Enter") open(summary, node); });
    body.appendChild(node);
    rows.push({summary, node});
  }
  for (const select of Object.values(filters)) select.addEventListener("change", apply);
  window.addEventListener("hashchange", route);
  apply();
  route();
})();
