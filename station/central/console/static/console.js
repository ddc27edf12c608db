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
        if (html !== null && el) { (swaps[id] || swap)(el, html); }
      }).catch(function () { /* the next event or timer tries again */ }).finally(function () {
        s.busy = false;
        if (s.again) { s.again = false; refresh(id, url, 0); }
      });
    }, delay);
  }

  function swap(el, html) { el.innerHTML = html; }

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
  source.addEventListener("signed_out", function () { location.href = "/login"; });
  // ages on the map ("last row 3 s ago") move on by themselves
  if (page === "map") { setInterval(function () { refreshTables(false); }, 10000); }
})();
