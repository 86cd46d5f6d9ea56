// The matrix player's script (numbadlx/display/player.py). The Python side fills in
// the player's element id and, once, the steps as JSON before the page sees it.
(function () {
  var root = document.getElementById("ID");
  if (!root || root.getAttribute("data-ready")) { return; }
  root.setAttribute("data-ready", "1");
  var D = DATA;
  var KINDS = ["choose", "try", "cover", "uncover", "backtrack", "solution"];
  function el(part) { return document.getElementById("ID-" + part); }
  var rows = [], cells = [], heads = [];
  var table = el("matrix");
  for (var k = 0; k < D.options.length; k++) {
    var tr = table.querySelector('tr[data-option="' + k + '"]');
    rows.push(tr);
    cells.push(Array.prototype.slice.call(tr.querySelectorAll("td")));
  }
  heads = Array.prototype.slice.call(table.querySelectorAll("th[data-item]"));
  // an option in the lists: its items with their colours (x:red), after its name
  // when it has a name of its own
  function optionLabel(k) {
    var text = D.optionTexts[k];
    return D.names[k] === text ? text : D.names[k] + ": " + text;
  }
  function colour(k, j) { return D.colours ? D.colours[k][j] : 0; }
  // item -> -1 (covered) or the colour it was given (purified), from options ks
  function coverMap(ks) {
    var map = {};
    ks.forEach(function (k) {
      D.options[k].forEach(function (i, j) {
        var c = colour(k, j);
        map[i] = (D.primary[i] || c === 0) ? -1 : c;
      });
    });
    return map;
  }
  function clashes(k, map) {
    var items = D.options[k];
    for (var j = 0; j < items.length; j++) {
      var c = map[items[j]];
      if (c !== undefined && (c === -1 || colour(k, j) !== c)) { return true; }
    }
    return false;
  }
  function activeRows(stack) {
    var map = coverMap(stack), picked = {}, active = [];
    stack.forEach(function (k) { picked[k] = true; });
    for (var k = 0; k < D.options.length; k++) {
      active.push(!picked[k] && !clashes(k, map));
    }
    return {active: active, map: map};
  }
  var current = 0;
  function render(n) {
    n = Math.max(0, Math.min(D.steps.length - 1, n));
    current = n;
    var s = D.steps[n], kind = KINDS[s[0]], level = s[1], item = s[2], option = s[3];
    var stack = s[4], tried = s[5];
    var state = activeRows(stack);
    var rowClass = [], colClass = [];
    var k, i;
    for (k = 0; k < D.options.length; k++) { rowClass.push(state.active[k] ? [] : ["removed"]); }
    for (i = 0; i < D.items.length; i++) {
      colClass.push(state.map[i] !== undefined ? ["removed"] : []);
    }
    stack.forEach(function (k) { rowClass[k].push(kind === "solution" ? "solution" : "picked"); });
    if (kind === "solution") {
      stack.forEach(function (k) { rowClass[k] = ["solution"]; });
    }
    // this level's choices: active options (above this level) holding its item
    var choices = [];
    if (item >= 0 && kind !== "solution") {
      var above = activeRows(stack.slice(0, level)).active;
      for (k = 0; k < D.options.length; k++) {
        if (above[k] && D.options[k].indexOf(item) >= 0) { choices.push(k); }
      }
    }
    if (kind === "choose" || kind === "backtrack") {
      colClass[item].push("covered");
      colClass[item].push("focus");
      choices.forEach(function (k) { rowClass[k].push("candidate"); });
    } else if (kind === "try") {
      var mine = coverMap([option]);
      D.options[option].forEach(function (i) { colClass[i].push("covered"); });
      for (k = 0; k < D.options.length; k++) {
        if (k !== option && state.active[k] && clashes(k, mine)) { rowClass[k].push("clash"); }
      }
      rowClass[option].push("chosen");
      colClass[item].push("focus");
    } else if (kind === "uncover") {
      rowClass[option].push("undone");
      D.options[option].forEach(function (i) { colClass[i].push("covered"); });
    }
    for (k = 0; k < rows.length; k++) {
      rows[k].className = rowClass[k].join(" ");
      for (i = 0; i < cells[k].length; i++) {
        var base = cells[k][i].getAttribute("data-one") ? "one " : "";
        cells[k][i].className = base + colClass[i].join(" ");
      }
    }
    for (i = 0; i < heads.length; i++) {
      heads[i].className = (D.primary[i] ? "" : "secondary ") + colClass[i].join(" ");
    }
    el("caption").textContent = D.texts[n];
    el("counter").textContent = "step " + (n + 1) + " / " + D.steps.length + " (" + kind + ")";
    el("slider").value = n;
    var list = el("choices");
    list.innerHTML = "";
    choices.forEach(function (k) {
      var li = document.createElement("li");
      li.textContent = optionLabel(k);
      li.setAttribute("data-option", k);
      if (k === option && (kind === "try" || kind === "cover")) { li.className = "current"; }
      else if (tried.indexOf(k) >= 0) { li.className = "tried"; }
      list.appendChild(li);
    });
    el("level").textContent = item >= 0 && kind !== "solution"
      ? "level " + level + ", item " + D.items[item] : "level " + level;
    var sol = el("solution");
    sol.innerHTML = "";
    stack.forEach(function (k) {
      var li = document.createElement("li");
      li.textContent = optionLabel(k);
      li.setAttribute("data-option", k);
      sol.appendChild(li);
    });
    root.setAttribute("data-step", n);
  }
  var timer = null;
  function stop() {
    if (timer) { clearInterval(timer); timer = null; el("play").textContent = "play"; }
  }
  el("first").onclick = function () { stop(); render(0); };
  el("prev").onclick = function () { stop(); render(current - 1); };
  el("next").onclick = function () { stop(); render(current + 1); };
  el("last").onclick = function () { stop(); render(D.steps.length - 1); };
  el("slider").oninput = function () { stop(); render(parseInt(this.value, 10)); };
  el("hide").onchange = function () {
    if (this.checked) { root.classList.add("ndlx-hide"); }
    else { root.classList.remove("ndlx-hide"); }
  };
  // arrow keys, Home and End step the player that has the focus (click it first)
  root.addEventListener("keydown", function (event) {
    var moves = {ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0,
                 End: D.steps.length - 1};
    if (event.target.tagName === "INPUT" || !(event.key in moves)) { return; }
    event.preventDefault();
    stop();
    render(moves[event.key]);
  });
  el("play").onclick = function () {
    if (timer) { stop(); return; }
    if (current >= D.steps.length - 1) { render(0); }
    el("play").textContent = "pause";
    timer = setInterval(function () {
      if (current >= D.steps.length - 1) { stop(); } else { render(current + 1); }
    }, 700);
  };
  render(0);
})();
