// The dashboard's access to parley serve: JSON requests to the public API
// (docs/api.md) and the two event streams (text/event-stream), with the
// bearer token when serve has one. The static files need no token; the page
// asks for it and keeps it in this browser's localStorage.
"use strict";

const api = (() => {
  const tokenKey = "parley.token";

  function token() { return localStorage.getItem(tokenKey) || ""; }

  function setToken(value) {
    if (value)
      localStorage.setItem(tokenKey, value);
    else
      localStorage.removeItem(tokenKey);
  }

  function headers(extra) {
    const h = Object.assign({}, extra);
    if (token())
      h.Authorization = "Bearer " + token();
    return h;
  }

  // Answers {status, body}; the body is the parsed JSON (or null).
  async function request(method, path, body) {
    const init = {
      method,
      headers : headers(body ? {"Content-Type" : "application/json"} : {})
    };
    if (body)
      init.body = JSON.stringify(body);
    const res = await fetch(path, init);
    let json = null;
    try {
      json = await res.json();
    } catch (_) {
      json = null;
    }
    return {status : res.status, body : json};
  }

  // Splits the text of a stream into its events (the SSE framing: fields up
  // to a blank line; comments start with ':'). Returns what is left over.
  function parseEvents(text, onEvent, state) {
    let at;
    while ((at = text.indexOf("\n\n")) >= 0) {
      const block = text.slice(0, at);
      text = text.slice(at + 2);
      const ev = {type : "message", data : []};
      for (const line of block.split("\n")) {
        if (line === "" || line[0] === ":")
          continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? "" : line.slice(colon + 1);
        if (value[0] === " ")
          value = value.slice(1);
        if (field === "event")
          ev.type = value;
        else if (field === "data")
          ev.data.push(value);
        else if (field === "id")
          state.lastId = value;
      }
      if (ev.data.length)
        onEvent(ev.type, ev.data.join("\n"));
    }
    return text;
  }

  // Reads a stream with fetch (EventSource cannot send a token), and
  // reconnects after a pause with Last-Event-ID, as EventSource would.
  function fetchStream(url, onEvent, onState) {
    const state = {lastId : "", closed : false, controller : null};
    async function run() {
      while (!state.closed) {
        state.controller = new AbortController();
        try {
          const h = headers({Accept : "text/event-stream"});
          if (state.lastId)
            h["Last-Event-ID"] = state.lastId;
          const res = await fetch(url, {headers : h, signal : state.controller.signal});
          if (!res.ok)
            throw new Error("HTTP " + res.status);
          onState(true);
          const reader = res.body.getReader();
          const decoder = new TextDecoder();
          let pending = "";
          for (;;) {
            const {value, done} = await reader.read();
            if (done)
              break;
            pending = parseEvents(
                pending +
                    decoder.decode(value, {stream : true}).replace(/\r\n?/g, "\n"),
                onEvent, state);
          }
        } catch (_) {
          // Reconnects below.
        }
        onState(false);
        if (!state.closed)
          await new Promise((r) => setTimeout(r, 2000));
      }
    }
    run();
    return {
      close() {
        state.closed = true;
        if (state.controller)
          state.controller.abort();
      }
    };
  }

  // Opens the stream at `url`, calling onEvent(type, payload, envelope) for
  // each event of `types` and onState(connected) when the connection comes
  // or goes. Returns something with close().
  function stream(url, types, onEvent, onState) {
    const deliver = (type, data) => {
      let envelope;
      try {
        envelope = JSON.parse(data);
      } catch (_) {
        return;
      }
      onEvent(envelope.event_type || type, envelope.payload || {}, envelope);
    };
    if (token())
      return fetchStream(url, deliver, onState);
    const source = new EventSource(url);
    source.onopen = () => onState(true);
    source.onerror = () => onState(source.readyState === EventSource.OPEN);
    for (const t of types)
      source.addEventListener(t, (e) => deliver(t, e.data));
    source.onmessage = (e) => deliver("message", e.data);
    return source;
  }

  return {token, setToken, request, stream};
})();

// Display helpers shared by the tables and timelines.
const fmt = {
  amount(proposal) {
    if (!proposal || proposal.amount === undefined)
      return "";
    const units = (proposal.amount / 100).toFixed(2);
    return (proposal.currency ? proposal.currency + " " : "") + units;
  },
  short(id) { return id && id.length > 12 ? id.slice(0, 8) + "…" : id || ""; },
  percent(x) { return typeof x === "number" ? Math.round(x * 100) + "%" : ""; },
  // `x` to `digits` decimals, then `unit`; "–" when there is no number.
  figure(x, digits, unit) {
    if (typeof x !== "number")
      return "–";
    return x.toFixed(digits) + (unit || "");
  },
  seconds(x) {
    if (typeof x !== "number")
      return "–";
    if (x < 0.001)
      return "< 1 ms";
    return x < 1 ? Math.round(x * 1000) + " ms" : x.toFixed(1) + " s";
  },
};

// Builds an element: el("td", {class: "x", "data-id": 1}, "text", child...).
function el(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

// The same in SVG's namespace, for the charts.
function svgEl(tag, attrs, ...children) {
  return fill(document.createElementNS("http://www.w3.org/2000/svg", tag), attrs,
              children);
}

function fill(e, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== undefined && v !== null)
      e.setAttribute(k, v);
  }
  for (const c of children) {
    if (c === undefined || c === null)
      continue;
    e.append(c instanceof Node ? c : String(c));
  }
  return e;
}
