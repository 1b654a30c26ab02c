// The two timelines of the dashboard: a negotiation's rounds (from GET
// /api/v1/negotiations/{id}) and a demand's channels
// (docs/protocols/channels.md, "Flow"; from its event stream, GET /api/v1/demands/{id}
// and GET /api/v1/channels/{id}).
"use strict";

const finalChannelStates = [ "finalized", "force_finalized", "failed" ];

// The channel status (docs/protocols/channels.md, "States and transitions") an event
// kind leaves a channel in.
const channelStatusAfter = {
  "filter.completed" : "created",
  "channel.created" : "created",
  "demand.broadcast" : "collecting",
  "proposal.distributed" : "proposal_sent",
  "proposal.feedback" : "negotiating",
  "negotiation.round_started" : "collecting",
  "proposal.finalized" : "finalized",
  "negotiation.force_finalized" : "force_finalized",
  "negotiation.failed" : "failed",
};

// A line chart of the amounts offered per round, one colour per party, as
// inline SVG (no chart library: a few points per negotiation).
function amountChart(record) {
  const rounds = record.rounds || [];
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("class", "chart");
  svg.setAttribute("viewBox", "0 0 320 120");
  const amounts = rounds.map((r) => (r.proposal ? r.proposal.amount : 0));
  if (!amounts.length)
    return svg;
  const lo = Math.min(...amounts), hi = Math.max(...amounts);
  const x = (i) => 20 + (rounds.length === 1 ? 140 : (i * 280) / (rounds.length - 1));
  const y = (a) => (hi === lo ? 60 : 100 - ((a - lo) * 80) / (hi - lo));
  const parties = [ record.initiator, record.responder ];
  rounds.forEach((r, i) => {
    const dot = document.createElementNS(ns, "circle");
    dot.setAttribute("cx", x(i));
    dot.setAttribute("cy", y(amounts[i]));
    dot.setAttribute("r", 4);
    dot.setAttribute("class", r.from_agent === parties[0] ? "party-a" : "party-b");
    const title = document.createElementNS(ns, "title");
    title.textContent =
        `round ${r.round}: ${r.from_agent} ${r.action} ${fmt.amount(r.proposal)}`;
    dot.append(title);
    svg.append(dot);
  });
  const line = document.createElementNS(ns, "polyline");
  line.setAttribute("points", amounts.map((a, i) => `${x(i)},${y(a)}`).join(" "));
  svg.prepend(line);
  return svg;
}

// The convergence of two successive offers
// (docs/protocols/bilateral.md, "Convergence score"), 1 − |a − b| / max(a, b)
// (actors/negotiation/rules.hpp), as a percentage; blank for the opening.
function convergence(a, b) {
  if (a === null || b === null || Math.max(a, b) <= 0)
    return "";
  return fmt.percent(1 - Math.abs(a - b) / Math.max(a, b));
}

// A score's pair of figures, "initiator / responder".
function pairOf(p) {
  return `${fmt.figure(p.initiator, 2)} / ${fmt.figure(p.responder, 2)}`;
}

// The offers of a scored negotiation in utility space (x: the initiator's
// utility, y: the responder's), one polyline per party, with the
// reservations dashed, the Nash point and, when agreed, the agreement.
function concessionChart(record) {
  const s = record.score;
  const offers = s.offers || [];
  const size = 220, left = 50, top = 10;
  const x = (u) => left + u * size;
  const y = (u) => top + (1 - u) * size;
  const chart = svgEl(
      "svg", {
        id : "concession-chart",
        class : "concession",
        viewBox : "0 0 280 270",
        "data-offers" : offers.length
      },
      svgEl("rect", {class : "frame", x : left, y : top, width : size, height : size}));
  for (const t of [0, 0.5, 1]) {
    chart.append(
        svgEl("text", {x : x(t), y : top + size + 14, "text-anchor" : "middle"}, t),
        svgEl("text", {x : left - 6, y : y(t) + 4, "text-anchor" : "end"}, t));
  }
  chart.append(
      svgEl("text", {x : x(0.5), y : 264, "text-anchor" : "middle"},
            `${record.initiator}'s utility`),
      svgEl("text",
            {transform : "rotate(-90)", x : -y(0.5), y : 14, "text-anchor" : "middle"},
            `${record.responder}'s utility`));
  // The initiator's reservation is a vertical line, the responder's a horizontal one.
  const r = s.reservation || {};
  const reservations = [
    [ record.initiator, r.initiator, (u) => [x(u), y(0), x(u), y(1)] ],
    [ record.responder, r.responder, (u) => [x(0), y(u), x(1), y(u)] ]
  ];
  for (const [agent, u, ends] of reservations) {
    if (typeof u !== "number")
      continue;
    const [x1, y1, x2, y2] = ends(u);
    chart.append(
        svgEl("line", {class : "reservation", x1, y1, x2, y2},
              svgEl("title", {}, `${agent}'s reservation ${fmt.figure(u, 2)}`)));
  }
  const byParty = [
    [ offers.filter((o) => o.from_agent === record.initiator), "party-a" ],
    [ offers.filter((o) => o.from_agent !== record.initiator), "party-b" ]
  ];
  for (const [list, cls] of byParty) {
    chart.append(svgEl("polyline", {
      class : cls,
      points : list.map((o) => `${x(o.initiator)},${y(o.responder)}`).join(" ")
    }));
    for (const o of list) {
      chart.append(svgEl(
          "circle", {class : cls, cx : x(o.initiator), cy : y(o.responder), r : 3.5},
          svgEl("title", {}, `round ${o.round}: ${o.from_agent} offers ${pairOf(o)}`)));
    }
  }
  const n = s.nash_point;
  if (n) {
    chart.append(svgEl("path", {
      class : "nash",
      d : `M${x(n.initiator)},${y(n.responder) - 6}l6,6l-6,6l-6,-6z`
    },
                       svgEl("title", {}, `Nash point ${pairOf(n)}`)));
  }
  if (record.status === "accepted" && s.utilities) {
    const u = s.utilities;
    chart.append(
        svgEl("circle",
              {class : "agreement", cx : x(u.initiator), cy : y(u.responder), r : 7},
              svgEl("title", {}, `agreement ${pairOf(u)}`)));
  }
  return chart;
}

// A scored negotiation's figure (docs/outcomes.md): the concession chart
// with its legend, each party's utility, advantage and reservation, the
// welfare and the distances to the Nash point and the Pareto frontier.
function scoreFigure(record) {
  const s = record.score;
  const agreed = record.status === "accepted";
  const key = (cls, text) => el("li", {}, el("span", {class : "key " + cls}), text);
  const row = (name, pair) =>
      el("tr", {}, el("th", {}, name),
         el("td", {id : `score-${name}-initiator`}, fmt.figure(pair.initiator, 2)),
         el("td", {id : `score-${name}-responder`}, fmt.figure(pair.responder, 2)));
  return el(
      "figure", {id : "score", class : "score"}, concessionChart(record),
      el("figcaption", {},
         el("ul", {class : "legend"}, key("party-a", `${record.initiator}'s offers`),
            key("party-b", `${record.responder}'s offers`),
            key("reservation", "reservations"),
            s.nash_point ? key("nash", "Nash point") : null,
            agreed ? key("agreement", "agreement") : null),
         el("table", {class : "score-figures"},
            el("thead", {},
               el("tr", {}, el("th", {}), el("th", {}, record.initiator),
                  el("th", {}, record.responder))),
            el("tbody", {}, row("utility", s.utilities || {}),
               row("advantage", s.advantages || {}),
               row("reservation", s.reservation || {}))),
         el("p", {}, "welfare ",
            el("span", {id : "score-welfare"}, fmt.figure(s.welfare, 2)),
            " · Nash distance ",
            el("span", {id : "score-nash-distance"}, fmt.figure(s.nash_distance, 3)),
            " · Pareto distance ",
            el("span", {id : "score-pareto-distance"},
               fmt.figure(s.pareto_distance, 3)))));
}

// Renders a negotiation record into `root`: its parties, status, the
// convergence score, a chart, one row per round and, once it is scored, its
// score.
function renderNegotiation(root, record) {
  root.replaceChildren(
      el("h2", {id : "timeline-title"}, "Negotiation ", el("code", {}, record.id)),
      el("p", {class : "summary"}, `${record.initiator} ↔ ${record.responder} · `,
         el("span", {id : "timeline-status", class : "status " + record.status},
            record.status),
         ` · convergence `,
         el("span", {id : "timeline-convergence"},
            fmt.percent(record.convergence_score)),
         record.final_proposal ? ` · final ${fmt.amount(record.final_proposal)}` : "",
         record.status_reason ? ` · ${record.status_reason}` : ""),
      amountChart(record));
  const body = el("tbody");
  let previous = null;
  for (const r of record.rounds || []) {
    const amount = r.proposal ? r.proposal.amount : null;
    body.append(el("tr", {class : "round", "data-round" : r.round},
                   el("td", {}, r.round), el("td", {}, r.from_agent),
                   el("td", {}, r.action),
                   el("td", {class : "amount"}, fmt.amount(r.proposal)),
                   el("td", {class : "convergence"}, convergence(previous, amount)),
                   el("td", {}, r.reason || "")));
    previous = amount;
  }
  root.append(el("table", {id : "timeline-rounds"},
                 el("thead", {},
                    el("tr", {}, el("th", {}, "round"), el("th", {}, "from"),
                       el("th", {}, "action"), el("th", {}, "amount"),
                       el("th", {}, "convergence"), el("th", {}, "reason"))),
                 body));
  if (record.score)
    root.append(scoreFigure(record));
}

// What a channel event says, whichever shape its payload has: the event stream's flat
// fields (docs/protocols/channels.md, "Events": agent_id, accepts, candidates, ...) or
// the runtime's channel_event (nested: offer, feedback, tally, selection, ...).
function channelFacts(type, p) {
  const selection = p.selection || {};
  const setup = p.setup || {};
  const tally = p.tally || p;
  return {
    kind : type.replace(/^towow\./, ""),
    channel : p.channel_id || "",
    demand : p.demand_id || "",
    round : p.round,
    candidates : p.candidates || selection.candidates || setup.candidates || [],
    offer : p.offer || (p.agent_id && p.decision ? p : null),
    feedback : p.feedback || (p.agent_id && p.feedback_type ? p : null),
    tally : tally.accept_rate !== undefined ? tally : null,
    proposal : p.proposal || p.final_proposal || p.last_proposal || null,
    reason : p.reason || "",
    surface :
        (p.understanding && p.understanding.surface_demand) || p.surface_demand || "",
  };
}

// A demand's channels as its events and the API tell them: candidates,
// and per round the offers, the proposal, the feedback and its tally; then
// the final state. Calls onChange(channelId, status) when a status changes.
class ChannelTimeline {
  constructor(demandId, onChange) {
    this.demandId = demandId;
    this.onChange = onChange;
    this.channels = new Map();
    this.surface = "";
    this.demandStatus = "processing";
  }

  channel(id) {
    if (!this.channels.has(id)) {
      this.channels.set(
          id, {id, status : "created", round : 1, candidates : [], rounds : new Map()});
    }
    return this.channels.get(id);
  }

  round(c, n) {
    const r = n || c.round;
    if (!c.rounds.has(r))
      c.rounds.set(r, {offers : [], proposal : null, feedback : [], tally : null});
    return c.rounds.get(r);
  }

  setStatus(c, status) {
    if (c.status === status || finalChannelStates.includes(c.status))
      return;
    c.status = status;
    this.onChange(c.id, status, c.round);
  }

  // Takes one event of the demand's stream.
  add(type, payload) {
    const f = channelFacts(type, payload);
    if (f.surface)
      this.surface = f.surface;
    if (!f.channel)
      return;
    const c = this.channel(f.channel);
    if (typeof f.round === "number" && f.round > c.round)
      c.round = f.round;
    switch (f.kind) {
    case "filter.completed":
    case "channel.created":
      if (f.candidates.length)
        c.candidates = f.candidates;
      break;
    case "offer.submitted":
      if (f.offer)
        this.round(c, f.round).offers.push(f.offer);
      break;
    case "proposal.distributed":
      this.round(c, f.round).proposal = f.proposal;
      break;
    case "proposal.feedback":
      if (f.feedback)
        this.round(c, f.round).feedback.push(f.feedback);
      break;
    case "feedback.evaluated":
      this.round(c, f.round).tally = f.tally;
      break;
    case "negotiation.round_started":
      c.round = f.round || c.round + 1;
      this.round(c, c.round).reason = f.reason;
      break;
    case "proposal.finalized":
    case "negotiation.force_finalized":
    case "negotiation.failed":
      c.final = f.proposal;
      if (f.kind === "negotiation.failed")
        c.reason = f.reason;
      break;
    }
    if (channelStatusAfter[f.kind])
      this.setStatus(c, channelStatusAfter[f.kind]);
  }

  // Takes GET /api/v1/demands/{id}: the demand's status and its channels'.
  addDemand(view) {
    this.demandStatus = view.status;
    if (view.understanding && view.understanding.surface_demand) {
      this.surface = view.understanding.surface_demand;
    }
    for (const o of view.channels || []) {
      const c = this.channel(o.channel_id);
      if (o.reason)
        c.reason = o.reason;
      if (o.proposal)
        c.final = o.proposal;
      this.setStatus(c, o.status);
    }
  }

  // Takes GET /api/v1/channels/{id}: the store's row.
  addChannel(row) {
    const c = this.channel(row.channel_id);
    if (row.round > c.round)
      c.round = row.round;
    c.stored = row;
    this.setStatus(c, row.status);
  }

  isFinal() {
    return this.channels.size > 0 && [...this.channels.values() ].every(
                                         (c) => finalChannelStates.includes(c.status));
  }

  render(root) {
    root.replaceChildren(
        el("h2", {id : "timeline-title"}, "Demand ", el("code", {}, this.demandId)),
        el("p", {class : "summary"}, this.surface, " · ",
           el("span", {id : "demand-status", class : "status " + this.demandStatus},
              this.demandStatus)));
    for (const c of this.channels.values())
      root.append(this.renderChannel(c));
  }

  renderChannel(c) {
    const box =
        el("div", {class : "channel", "data-channel-id" : c.id},
           el("h3", {}, "Channel ", el("code", {}, c.id), " ",
              el("span", {class : "status channel-status " + c.status}, c.status)));
    if (c.candidates.length) {
      box.append(el("p", {class : "candidates"}, `${c.candidates.length} candidates: `,
                    c.candidates.map((x) => x.display_name || x.agent_id).join(", ")));
    }
    for (const [n, r] of [...c.rounds.entries()].sort((a, b) => a[0] - b[0])) {
      box.append(this.renderRound(n, r));
    }
    if (c.stored) {
      box.append(el("p", {class : "stored"},
                    `store: round ${c.stored.round}, ${c.stored.responses} responses, ${
                        c.stored.feedback} feedback`));
    }
    if (finalChannelStates.includes(c.status)) {
      box.append(el("p", {class : "final " + c.status}, "final: ", c.status,
                    c.final && c.final.summary ? ` · ${c.final.summary}` : "",
                    c.reason ? ` · ${c.reason}` : ""));
    }
    const assigned = (c.final && c.final.assignments) || [];
    if (assigned.length) {
      box.append(el("ul", {class : "assignments"},
                    ...assigned.map((a) => el("li", {},
                                              `${a.display_name || a.agent_id}: ${
                                                  a.responsibility || a.role}`,
                                              a.is_confirmed ? " (confirmed)" : ""))));
    }
    return box;
  }

  renderRound(n, r) {
    const counts = {accept : 0, negotiate : 0, withdraw : 0};
    for (const f of r.feedback)
      counts[f.feedback_type] = (counts[f.feedback_type] || 0) + 1;
    const t = r.tally;
    const list = el("ul", {});
    for (const o of r.offers) {
      list.append(el("li", {class : "offer"},
                     `${o.display_name || o.agent_id}: ${o.decision}`,
                     o.response_type === "negotiate" ? " (negotiate)" : "",
                     o.contribution ? ` · ${o.contribution}` : ""));
    }
    return el("div", {class : "channel-round", "data-round" : n},
              el("h4", {}, `Round ${n}`, r.reason ? ` · ${r.reason}` : ""), list,
              r.proposal
                  ? el("p", {class : "proposal"},
                       "proposal: ", r.proposal.summary || r.proposal.proposal_id || "")
                  : null,
              r.feedback.length || t
                  ? el("p", {class : "feedback"},
                       `feedback: ${t ? t.accepts : counts.accept} accept, ${
                           t ? t.negotiates : counts.negotiate} negotiate, ` +
                           `${t ? t.withdraws : counts.withdraw} withdraw`,
                       t ? ` · accept rate ${fmt.percent(t.accept_rate)}` : "",
                       t && t.decision ? ` · ${t.decision}` : "")
                                       : null);
  }
}
