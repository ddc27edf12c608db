// The floor console's live updates: one EventSource (server-sent events); the page fetches the
// part that changed as server-rendered HTML. No build step, no framework.
(function () {
  "use strict";
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
        return null;
      }).then(function (html) {
        var el = document.getElementById(id);
        if (html !== null && el) { el.innerHTML = html; }
      }).catch(function () { /* the next event or timer tries again */ }).finally(function () {
        s.busy = false;
        if (s.again) { s.again = false; refresh(id, url, 0); }
      });
    }, delay);
  }

  function refreshTables(now) {
    if (page === "map") { refresh("tables", "/map/tables", now ? 0 : 1000); }
  }

  var station = body.getAttribute("data-station");
  var incident = body.getAttribute("data-incident");
  function refreshWorkflow() {
    if (page === "incident") {
      refresh("workflow", "/incidents/" + station + "/" + incident + "/workflow", 0);
    }
  }

  var source = new EventSource("/events");
  source.onopen = function () { say("live"); };
  source.onerror = function () { say("reconnecting…"); };
  source.addEventListener("table", function (e) {
    var d = JSON.parse(e.data);
    refreshTables(d.urgent === true);
  });
  source.addEventListener("alarm", function () { refreshTables(true); });
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
  source.addEventListener("signed_out", function () { location.href = "/login"; });
  // ages on the map ("last row 3 s ago") move on by themselves
  if (page === "map") { setInterval(function () { refreshTables(false); }, 10000); }
})();
