// The dashboard page: counters, the deal quality of the last 7 days, a
// cluster's members, the tables of recent negotiations and channels, the
// selected timeline and the demand form. Initial state from the API (GET
// /api/v1/stats, GET /api/v1/negotiations, GET /api/v1/cluster); live updates
// from GET /api/v1/events/stream (on a cluster's node: every node's events,
// each naming its node) and, for a demand, its own stream.
"use strict";

const negotiationTypes = [
  "negotiation.started", "negotiation.updated", "negotiation.agreed",
  "negotiation.rejected", "negotiation.expired"
];
const channelTypes = [
  "towow.demand.understood", "towow.filter.completed", "towow.channel.created",
  "towow.demand.broadcast", "towow.offer.submitted", "towow.proposal.distributed",
  "towow.proposal.feedback", "towow.feedback.evaluated",
  "towow.negotiation.round_started", "towow.proposal.finalized",
  "towow.negotiation.force_finalized", "towow.negotiation.failed"
];
const openStates = [ "initiated", "proposed", "counter_proposed", "countering" ];
const maxRows = 50;
const rateWindowMs = 10000;
const qualityEveryMs = 5000;
const membersEveryMs = 2000;

const counters = {
  open : 0,
  agreed : 0,
  rejected : 0,
  expired : 0
};
// Recent event times per counter, for the per-second rates.
const recent = {
  open : [],
  agreed : [],
  rejected : [],
  expired : []
};
const negotiations = new Map();
// The node whose events last told of each negotiation (a cluster's streams
// name it).
const nodeOf = new Map();
let clustered = false;
let membersTimer = null;
let selected = null; // {kind: "negotiation" | "demand", id, timeline?, stream?}
let mainStream = null;
let qualityTimer = null;
let qualityReadAt = 0;

function $(id) { return document.getElementById(id); }

function notice(text) {
  const n = $("notice");
  n.textContent = text || "";
  n.hidden = !text;
}

function showCounters() {
  const now = Date.now();
  for (const k of Object.keys(counters)) {
    $("count-" + k).textContent = counters[k];
    recent[k] = recent[k].filter((t) => now - t < rateWindowMs);
    $("rate-" + k).textContent =
        (recent[k].length / (rateWindowMs / 1000)).toFixed(1) + "/s";
  }
}

function bump(name, by) {
  counters[name] = Math.max(0, counters[name] + by);
  if (by > 0)
    recent[name].push(Date.now());
}

// --- deal quality ----------------------------------------------------------

// The strip from GET /api/v1/stats' outcomes_7d
// (docs/protocols/record-and-schema.md, "Outcome figures") and its scores.
function showQuality(o) {
  const s = o.scores || {};
  const rounds = o.rounds_to_agreement || {};
  const seconds = o.seconds_to_agreement || {};
  const utility = s.mean_utility || {};
  const advantage = s.mean_advantage || {};
  const values = {
    "agreement-rate" : fmt.figure(o.agreement_rate_pct, 1, "%"),
    "rounds-p50" : fmt.figure(rounds.p50, 0),
    "rounds-p90" : fmt.figure(rounds.p90, 0),
    "seconds-p50" : fmt.seconds(seconds.p50),
    "seconds-p90" : fmt.seconds(seconds.p90),
    "scored" : fmt.figure(s.negotiations, 0),
    "mean-utility-initiator" : fmt.figure(utility.initiator, 2),
    "mean-utility-responder" : fmt.figure(utility.responder, 2),
    "mean-advantage-initiator" : fmt.figure(advantage.initiator, 2),
    "mean-advantage-responder" : fmt.figure(advantage.responder, 2),
    "mean-welfare" : fmt.figure(s.mean_welfare, 2),
    "mean-nash-distance" : fmt.figure(s.mean_nash_distance, 3),
    "mean-pareto-distance" : fmt.figure(s.mean_pareto_distance, 3),
  };
  for (const [k, v] of Object.entries(values))
    $("quality-" + k).textContent = v;
}

// Reads the strip again after a negotiation ended: at most once per
// qualityEveryMs, and not at once, since the store commits the end a little
// after the event stream tells it.
function refreshQuality() {
  if (qualityTimer)
    return;
  const wait = Math.max(1000, qualityReadAt + qualityEveryMs - Date.now());
  qualityTimer = setTimeout(async () => {
    qualityTimer = null;
    qualityReadAt = Date.now();
    const stats = await api.request("GET", "/api/v1/stats");
    if (stats.status === 200)
      showQuality(stats.body.outcomes_7d || {});
  }, wait);
}

// --- negotiations -----------------------------------------------------------

function negotiationRow(r) {
  const last = r.rounds && r.rounds.length ? r.rounds[r.rounds.length - 1].proposal
                                           : r.current_proposal;
  const row =
      el("tr", {"data-negotiation-id" : r.id, class : "clickable"},
         el("td", {title : r.id}, fmt.short(r.id)), el("td", {}, r.initiator),
         el("td", {}, r.responder), el("td", {class : "status " + r.status}, r.status),
         el("td", {class : "rounds"}, r.rounds ? r.rounds.length : ""),
         el("td", {class : "amount"}, fmt.amount(r.final_proposal || last)),
         clustered ? el("td", {class : "node"}, nodeOf.get(r.id) || "") : null);
  row.addEventListener("click", () => selectNegotiation(r.id));
  if (selected && selected.id === r.id)
    row.classList.add("selected");
  return row;
}

function showNegotiation(r) {
  negotiations.set(r.id, r);
  const body = $("negotiations").tBodies[0];
  const old = body.querySelector(`tr[data-negotiation-id="${CSS.escape(r.id)}"]`);
  const row = negotiationRow(r);
  if (old)
    old.replaceWith(row);
  else
    body.prepend(row);
  while (body.rows.length > maxRows) {
    negotiations.delete(body.rows[body.rows.length - 1].dataset.negotiationId);
    nodeOf.delete(body.rows[body.rows.length - 1].dataset.negotiationId);
    body.deleteRow(-1);
  }
}

function onNegotiationEvent(type, p, node) {
  const id = p.negotiation_id || (p.negotiation && p.negotiation.id);
  if (!id)
    return;
  if (node)
    nodeOf.set(id, node);
  const kind = type.replace(/^negotiation\./, "");
  const known = negotiations.get(id);
  if (kind === "started") {
    bump("open", 1);
  } else if (kind !== "updated") {
    bump("open", -1);
    bump(kind, 1);
    refreshQuality();
  }
  if (p.negotiation) {
    showNegotiation(p.negotiation);
  } else if (known && p.round) {
    known.rounds = (known.rounds || []).concat([ p.round ]);
    known.status = "countering";
    known.current_proposal = p.round.proposal;
    if (p.convergence_score !== undefined)
      known.convergence_score = p.convergence_score;
    showNegotiation(known);
  }
  if (selected && selected.kind === "negotiation" && selected.id === id)
    selectNegotiation(id);
}

async function selectNegotiation(id) {
  closeSelected();
  selected = {kind : "negotiation", id};
  markSelected();
  const a = await api.request("GET", "/api/v1/negotiations/" + encodeURIComponent(id));
  if (!selected || selected.id !== id)
    return;
  if (a.status !== 200) {
    $("timeline").replaceChildren(el("p", {class : "error"}, apiError(a)));
    return;
  }
  renderNegotiation($("timeline"), a.body);
}

// --- cluster ----------------------------------------------------------------

// The newest incarnation of each node of `members` (GET /api/v1/cluster), the
// live ones first, then by node id.
function newestMembers(members) {
  const newest = new Map();
  for (const m of members) {
    const known = newest.get(m.node_id);
    if (!known || m.incarnation > known.incarnation)
      newest.set(m.node_id, m);
  }
  const live = (m) => (m.status === "live" ? 0 : 1);
  return Array.from(newest.values())
      .sort((x, y) => live(x) - live(y) || x.node_id.localeCompare(y.node_id));
}

function showMembers(body) {
  $("cluster-name").textContent = body.cluster || "";
  const rows = newestMembers(body.members || [])
                   .map((m) => el("tr", {"data-node-id" : m.node_id},
                                  el("td", {class : "node-id"}, m.node_id),
                                  el("td", {class : "incarnation"}, m.incarnation),
                                  el("td", {class : "status " + m.status}, m.status),
                                  el("td", {class : "lease-age"},
                                     fmt.seconds(m.lease_age_ms / 1000)),
                                  el("td", {class : "negotiations"}, m.negotiations),
                                  el("td", {class : "rooms"}, m.rooms),
                                  el("td", {class : "channels"}, m.channels),
                                  el("td", {class : "api"}, m.api_address)));
  $("members").tBodies[0].replaceChildren(...rows);
}

// Reads the members now and every membersEveryMs while this is a cluster's
// node (a single node answers 404: no cluster section).
async function refreshMembers() {
  clearTimeout(membersTimer);
  const a = await api.request("GET", "/api/v1/cluster");
  if (a.status === 404) {
    $("cluster").hidden = true;
    return;
  }
  if (a.status === 200) {
    $("cluster").hidden = false;
    showMembers(a.body);
  }
  membersTimer = setTimeout(refreshMembers, membersEveryMs);
}

// --- channels ---------------------------------------------------------------

function showChannel(demandId, channelId, status, round) {
  if (!channelId)
    return;
  const body = $("channels").tBodies[0];
  let row = body.querySelector(`tr[data-channel-id="${CSS.escape(channelId)}"]`);
  if (!row) {
    row = el("tr", {
      "data-channel-id" : channelId,
      "data-demand-id" : demandId,
      class : "clickable"
    },
             el("td", {title : demandId}, fmt.short(demandId)),
             el("td", {title : channelId}, fmt.short(channelId)),
             el("td", {class : "status"}), el("td", {class : "round"}));
    row.addEventListener("click", () => selectDemand(row.dataset.demandId));
    body.prepend(row);
    while (body.rows.length > maxRows)
      body.deleteRow(-1);
  }
  if (status) {
    row.cells[2].textContent = status;
    row.cells[2].className = "status " + status;
  }
  if (round)
    row.cells[3].textContent = round;
}

// The general stream keeps the channels table current; a selected demand's
// timeline is fed by the demand's own stream alone (it replays the demand
// from its start, so taking this stream's events too would count some twice).
function onChannelEvent(type, p) {
  const f = channelFacts(type, p);
  if (f.channel)
    showChannel(f.demand, f.channel, channelStatusAfter[f.kind], f.round);
}

// Reads the demand and its channels from the API into the selected
// timeline; until they are final and while the demand's own stream is not
// connected, reads them again every 2 s.
async function refreshDemand(sel) {
  const a = await api.request("GET", "/api/v1/demands/" + encodeURIComponent(sel.id));
  if (selected !== sel)
    return;
  if (a.status === 200) {
    sel.timeline.addDemand(a.body);
    for (const c of a.body.channels || []) {
      const row = await api.request("GET", "/api/v1/channels/" +
                                               encodeURIComponent(c.channel_id));
      if (row.status === 200 && selected === sel)
        sel.timeline.addChannel(row.body);
    }
    sel.timeline.render($("timeline"));
  }
  if (selected === sel && !sel.timeline.isFinal() && !sel.live) {
    sel.poll = setTimeout(() => refreshDemand(sel), 2000);
  }
}

function selectDemand(demandId) {
  closeSelected();
  const sel = {kind : "demand", id : demandId};
  sel.timeline = new ChannelTimeline(demandId, (channelId, status, round) => {
    showChannel(demandId, channelId, status, round);
    if (finalChannelStates.includes(status) && selected === sel)
      refreshDemand(sel);
  });
  selected = sel;
  markSelected();
  sel.timeline.render($("timeline"));
  sel.stream = api.stream("/api/v1/events/negotiations/" +
                              encodeURIComponent(demandId) + "/stream",
                          channelTypes,
                          (type, p) => {
                            if (selected !== sel)
                              return;
                            sel.timeline.add(type, p);
                            sel.timeline.render($("timeline"));
                          },
                          (up) => { sel.live = up; });
  refreshDemand(sel);
}

function closeSelected() {
  if (selected && selected.stream)
    selected.stream.close();
  if (selected && selected.poll)
    clearTimeout(selected.poll);
  selected = null;
}

function markSelected() {
  for (const row of document.querySelectorAll("tr.selected"))
    row.classList.remove("selected");
  if (!selected)
    return;
  const attr =
      selected.kind === "negotiation" ? "data-negotiation-id" : "data-demand-id";
  for (const row of document.querySelectorAll(
           `tr[${attr}="${CSS.escape(selected.id)}"]`)) {
    row.classList.add("selected");
  }
}

// --- demand form ------------------------------------------------------------

function apiError(a) {
  if (a.body && a.body.error_code)
    return `${a.body.error_code}: ${a.body.message}`;
  return "HTTP " + a.status;
}

async function submitDemand(event) {
  event.preventDefault();
  const body = {raw_input : $("demand-input").value};
  if ($("demand-user").value)
    body.user_id = $("demand-user").value;
  $("demand-result").textContent = "submitting…";
  const a = await api.request("POST", "/api/v1/demand/submit", body);
  if (a.status !== 200 || a.body.error_code) {
    $("demand-result").textContent = apiError(a);
    return;
  }
  $("demand-result").textContent = "demand " + a.body.demand_id;
  showChannel(a.body.demand_id, a.body.channel_id, "created", 1);
  selectDemand(a.body.demand_id);
}

// --- start ------------------------------------------------------------------

async function loadInitial() {
  const stats = await api.request("GET", "/api/v1/stats");
  if (stats.status === 401) {
    notice("This server needs an API token: enter it above.");
    return false;
  }
  if (stats.status === 200) {
    for (const k of Object.keys(counters))
      counters[k] = 0;
    for (const s of stats.body.current_24h || []) {
      if (openStates.includes(s.state))
        counters.open += s.count;
      else if (s.state === "accepted")
        counters.agreed += s.count;
      else if (s.state in counters)
        counters[s.state] += s.count;
    }
    showQuality(stats.body.outcomes_7d || {});
  }
  const cluster = await api.request("GET", "/api/v1/cluster");
  clustered = cluster.status === 200;
  for (const th of document.querySelectorAll("#negotiations th.node"))
    th.hidden = !clustered;
  refreshMembers();
  const list = await api.request("GET", "/api/v1/negotiations?limit=" + maxRows);
  if (list.status === 200) {
    $("negotiations").tBodies[0].replaceChildren();
    for (const r of list.body.records.slice().reverse())
      showNegotiation(r);
  }
  notice(stats.status === 200 ? "" : "The API answered " + apiError(stats));
  return true;
}

function connect() {
  if (mainStream)
    mainStream.close();
  mainStream = api.stream("/api/v1/events/stream?topics=negotiation,channel",
                          negotiationTypes.concat(channelTypes),
                          (type, p, envelope) => {
                            if (type.startsWith("negotiation."))
                              onNegotiationEvent(type, p, envelope.node);
                            else if (type.startsWith("towow."))
                              onChannelEvent(type, p);
                          },
                          (up) => {
                            $("live").textContent = up ? "live" : "stream disconnected";
                            $("live").className = "live " + (up ? "on" : "off");
                          });
}

async function start() {
  if (await loadInitial())
    connect();
  showCounters();
}

function init() {
  $("token").value = api.token();
  $("token-form").addEventListener("submit", (e) => {
    e.preventDefault();
    api.setToken($("token").value.trim());
    start();
  });
  $("demand-form").addEventListener("submit", submitDemand);
  setInterval(showCounters, 500);
  start();
}

document.addEventListener("DOMContentLoaded", init, {once : true});
