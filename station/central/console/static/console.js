// The floor console's live updates: one EventSource (server-sent events); the page fetches the
// part that changed as server-rendered HTML. No build step, no framework.
(function () {
  "use strict";
  // On a narrow screen a table of rows shows one card per row: each cell says its column.
  var tables = document.querySelectorAll("main table");
  for (var ti = 0; ti < tables.length; ti++) {
    var heads = tables[ti].querySelectorAll("thead th");
    var rows = tables[ti].querySelectorAll("tbody tr");
    for (var ri = 0; ri < rows.length; ri++) {
      var cells = rows[ri].children;
      for (var ci = 0; ci < cells.length && ci < heads.length; ci++) {
        if (cells[ci].colSpan === 1) { cells[ci].setAttribute("data-label", heads[ci].textContent); }
      }
    }
  }
  var body = document.body;
  var page = body.getAttribute("data-page");
  var live = document.getElementById("live");
  if (!live) { return; }  // the sign-in page

  function say(text) { live.textContent = text; }

  // Fetch `url` into element `id`; one fetch at a time per element, and a request made while
  // one is running fetches again after it, so the newest state always lands last.
  var state = {};
  function refresh(id, url, delay) {
    var s = state[id] || (state[id] = { busy: false, again: false, timer: null });
    if (s.busy) { s.again = true; return; }
    if (s.timer !== null) {
      if (delay > 0) { return; }
      clearTimeout(s.timer);
    }
    s.timer = setTimeout(function () {
      s.timer = null; s.busy = true;
      fetch(url, { credentials: "same-origin", cache: "no-store" }).then(function (r) {
        if (r.status === 200) { return r.text(); }
        if (r.status === 401 || r.status === 403 || r.redirected) { location.reload(); }
        if (fails[id]) { fails[id]("the central database is not answering (" + r.status + ")"); }
        return null;
      }).then(function (html) {
        var el = document.getElementById(id);
        if (html !== null && el) { (swaps[id] || swap)(el, html); }
      }).catch(function () {
        if (fails[id]) { fails[id]("the floor console's server is not answering"); }
      }).finally(function () {
        s.busy = false;
        if (s.again) { s.again = false; refresh(id, url, 0); }
      });
    }, delay);
  }

  function swap(el, html) { el.innerHTML = html; }
  // What a part says when it cannot be fetched (the centre's line: never a stale "up").
  var fails = {};

  // The workflow's status always; its forms only when what they offer changed and nobody is
  // typing in them (a refresh never empties a field under the floor's fingers).
  function busyForm(el) {
    if (el.contains(document.activeElement) && document.activeElement !== document.body) {
      return true;
    }
    var fields = el.querySelectorAll("input[type=text], input:not([type]), textarea");
    for (var i = 0; i < fields.length; i++) { if (fields[i].value !== "") { return true; } }
    return false;
  }
  var swaps = {
    workflow: function (el, html) {
      var t = document.createElement("template");
      t.innerHTML = html;
      var status = t.content.getElementById("wf-status");
      var forms = t.content.getElementById("wf-forms");
      var oldStatus = document.getElementById("wf-status");
      var oldForms = document.getElementById("wf-forms");
      if (!status || !forms || !oldStatus || !oldForms) { el.innerHTML = html; return; }
      oldStatus.replaceWith(status);
      if (oldForms.getAttribute("data-key") !== forms.getAttribute("data-key")) {
        if (busyForm(oldForms)) {
          var note = document.getElementById("wf-changed");
          if (note) { note.hidden = false; }
        } else {
          oldForms.replaceWith(forms);
        }
      }
    }
  };

  function refreshTables(now) {
    if (page === "map") { refresh("tables", "/map/tables", now ? 0 : 1000); }
  }

  // The centre's health line (broker, ingest) every 2 s on the pages that show it: a change
  // refreshes the tables at once (a deaf centre makes every tile NOT HEARD).
  var centreKey = null;
  swaps["centre-wrap"] = function (el, html) {
    el.innerHTML = html;
    var c = document.getElementById("centre");
    var key = c ? c.getAttribute("data-key") : null;
    if (centreKey !== null && key !== centreKey) {
      if (page === "map") { refreshTables(true); } else if (page === "health" || page === "table") { location.reload(); }
    }
    centreKey = key;
  };
  fails["centre-wrap"] = function (why) {
    var el = document.getElementById("centre-wrap");
    if (!el) { return; }
    el.innerHTML = "";
    var box = document.createElement("div");
    box.id = "centre";
    box.className = "centre deaf";
    box.setAttribute("data-key", "unreachable");
    box.setAttribute("role", "status");
    box.textContent = "NO NEWS FROM THE CENTRE: " + why + ". What this page shows is as last heard.";
    el.appendChild(box);
    centreKey = "unreachable";
  };
  if (document.getElementById("centre-wrap")) {
    var first = document.getElementById("centre");
    centreKey = first ? first.getAttribute("data-key") : null;
    setInterval(function () { refresh("centre-wrap", "/map/health", 0); }, 2000);
  }

  var station = body.getAttribute("data-station");
  var incident = body.getAttribute("data-incident");
  function refreshWorkflow() {
    if (page === "incident") {
      refresh("workflow", "/incidents/" + station + "/" + incident + "/workflow", 0);
    }
  }

  var source = new EventSource("/events");
  // What changed before the stream opened (the page was rendered a moment earlier) or while it
  // was down would be missed: refresh once on every (re)connection.
  var opened = false;
  source.onopen = function () {
    say("live");
    if (opened || page === "incident") {
      refreshTables(true);
      refreshWorkflow();
    }
    if (opened && page === "tournament") { refresh("tournament-live", "/tournaments/" + body.getAttribute("data-event") + "/live", 0); }
    opened = true;
  };
  source.onerror = function () { say("reconnecting…"); };
  source.addEventListener("table", function (e) {
    var d = JSON.parse(e.data);
    refreshTables(d.urgent === true);
  });
  source.addEventListener("alarm", function (e) {
    var d = JSON.parse(e.data);
    refreshTables(true);
    if (page === "alarms" && d.station === station) {
      var note = document.getElementById("changed");
      if (note) { note.hidden = false; }
    }
  });
  source.addEventListener("command", function (e) {
    var d = JSON.parse(e.data);
    refreshTables(true);
    if (d.station === station) { refreshWorkflow(); }
  });
  source.addEventListener("incident", function (e) {
    var d = JSON.parse(e.data);
    if (page === "queue") {
      var note = document.getElementById("changed");
      if (note) { note.hidden = false; }
    }
    if (d.station === station && d.ids.indexOf(Number(incident)) >= 0) { refreshWorkflow(); }
  });
  // A tournament's live view: fetched again when the event changes; its clock counts down here
  // between two fetches (the server's figure wins at each one).
  var eventId = body.getAttribute("data-event");
  function refreshEvent(now) {
    if (page === "tournament") { refresh("tournament-live", "/tournaments/" + eventId + "/live", now ? 0 : 300); }
  }
  source.addEventListener("tournament", function (e) {
    var d = JSON.parse(e.data);
    if (d.event === eventId) { refreshEvent(false); }
  });
  if (page === "tournament") {
    var counted = Date.now();
    setInterval(function () {
      var el = document.querySelector("[data-countdown]");
      var now = Date.now();
      if (el && !el.hasAttribute("data-paused")) {
        var was = Number(el.getAttribute("data-countdown"));
        var left = Math.max(0, was - (now - counted) / 1000);
        el.setAttribute("data-countdown", left.toFixed(1));
        var whole = Math.ceil(left - 1e-9), h = Math.floor(whole / 3600), m = Math.floor(whole / 60) % 60, sec = whole % 60;
        el.textContent = (h ? h + ":" + (m < 10 ? "0" : "") + m : String(m)) + ":" + (sec < 10 ? "0" : "") + sec;
        if (was > 0 && left <= 0) { refreshEvent(true); }
      }
      counted = now;
    }, 1000);
    setInterval(function () { refreshEvent(true); }, 15000);
  }
  source.addEventListener("signed_out", function () { location.href = "/login"; });
  // ages on the map ("last row 3 s ago") move on by themselves
  if (page === "map") { setInterval(function () { refreshTables(false); }, 10000); }
})();
