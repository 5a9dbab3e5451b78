/* The calculator of the scorecard page (exporters/html.py). It reads the model from the
   JSON block "scorecard-model" and never writes user text as HTML (textContent only).
   Tick rows / type values, or open the page as  card.html#row=<URI-encoded JSON object>
   ({input name: value}) to have each row's condition evaluated as scorecard.runtime does.
   card.html#rows=<URI-encoded JSON list of such objects> scores each in turn and writes
   [[score, prediction], ...] (null when a row has no score) into #batch, for checks.
   The score is the points total: the sum starts at 0 and adds the rows in order, as every
   export does, and predicts when it is > the threshold; the result is also left in
   #total's data-score / data-prediction attributes for machines. */
(function () {
  "use strict";
  var model = JSON.parse(document.getElementById("scorecard-model").textContent);
  var controls = model.rows.map(function (r, k) { return document.getElementById("r" + (k + 1)); });
  var parts = document.querySelectorAll("output.part");
  var lines = document.querySelectorAll("tr.term");
  var total = document.getElementById("total");
  var verdict = document.getElementById("verdict");
  var risks = document.querySelectorAll("td[data-points]");
  var blocked = "";

  /* The risk column of a total: the one at that total or, in a table of steps (data-steps),
     the last one at or below it (the first below them all), as scorecard.runtime reads it. */
  function riskColumn(points) {
    if (!document.querySelector("table.risk[data-steps]")) { return points; }
    var starts = Array.prototype.map.call(risks, function (td) { return Number(td.getAttribute("data-points")); });
    var column = Math.min.apply(null, starts);
    starts.forEach(function (s) { if (s <= points && s > column) { column = s; } });
    return column;
  }

  /* Numbers in text follow the one grammar of docs/contract.md ("Score semantics", reading values), that of
     scorecard.runtime (runtime/score.py NUMBER): around the number only the whitespace
     Python's str.strip() removes (not String.trim's: it strips U+FEFF and keeps U+001C-U+001F
     and U+0085), then an optional sign, ASCII decimal digits with an optional fraction and
     exponent. No other base (Number("0x10") is 16), no underscore, no non-ASCII digit, no
     Infinity or NaN. Number() of the matched text is the nearest double, as Python's float(). */
  var SPACE = "[\u0009-\u000d\u001c-\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*";
  var BLANK = new RegExp("^" + SPACE + "$");
  var NUMBER = new RegExp("^" + SPACE + "([+-]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?)" + SPACE + "$");

  function isMissing(v) {
    return v === undefined || v === null || (typeof v === "string" && BLANK.test(v)) ||
      (typeof v === "number" && isNaN(v));
  }

  function coerce(r, v) {
    if (r.type === "categorical") {
      if (typeof v === "boolean") { return v ? "True" : "False"; }
      return String(v);
    }
    if (typeof v === "boolean") { return v ? 1 : 0; }
    var x = v;
    if (typeof v !== "number") {
      var match = NUMBER.exec(String(v));
      if (!match) { throw new Error(r.shown + ": " + String(v) + " is not a number"); }
      x = Number(match[1]);
    }
    if (!isFinite(x)) { throw new Error(r.shown + ": " + String(v) + " is not a finite number"); }
    return x;
  }

  function holds(test, x) {
    if (test.op === ">=") { return x >= test.value; }
    if (test.op === "<") { return x < test.value; }
    if (test.op === "==") { return x === test.value; }
    if (test.op === "in") { return test.value.indexOf(x) >= 0; }
    if (test.op === "missing") { return false; } /* a known value is never "unknown" */
    return x === 1; /* a linear term on a binary input: its points when the input is 1 */
  }

  function fill(row) {
    model.rows.forEach(function (r, k) {
      var raw = Object.prototype.hasOwnProperty.call(row, r.input) ? row[r.input] : undefined;
      if (isMissing(raw)) {
        if (r.unknown) { /* "unmet": only the row's "unknown" conditions hold */
          controls[k].checked = r.tests.some(function (t) { return t.op === "missing"; });
          return;
        }
        if (!r.impute.length) { blocked = blocked || ("no score: " + r.shown + " is missing"); return; }
        raw = r.impute[0];
      }
      var x = coerce(r, raw);
      if (r.multiply) { controls[k].value = String(x); } else { controls[k].checked = r.tests.some(function (t) { return holds(t, x); }); }
    });
  }

  function signed(x, plus) {
    if (!plus) { return String(x); }
    return x < 0 ? "\u2212 " + String(-x) : "+ " + String(x);
  }

  function compute() {
    var points = 0, problem = blocked;
    model.rows.forEach(function (r, k) {
      var part = 0, c = controls[k];
      if (r.multiply) {
        var text = c.value.trim();
        if (text === "" && !r.impute.length) { problem = problem || verdict.getAttribute("data-incomplete"); }
        part = r.points * (text === "" ? (r.impute.length ? r.impute[0] : 0) : Number(text));
      } else if (c.checked) {
        part = r.points;
      }
      points += part;
      parts[k].textContent = (r.multiply || c.checked) ? signed(part, k > 0) : "";
      lines[k].classList.toggle("on", r.multiply ? c.value !== "" : c.checked);
    });
    total.textContent = problem ? "\u2026" : String(points);
    total.setAttribute("data-score", problem ? "" : String(points));
    total.setAttribute("data-prediction", problem ? "" : (points > model.threshold ? "1" : "0"));
    verdict.textContent = problem || (verdict.getAttribute("data-prefix") + String(points) + " " +
      verdict.getAttribute(points > model.threshold ? "data-yes" : "data-no"));
    var column = problem ? null : riskColumn(points);
    Array.prototype.forEach.call(risks, function (td) {
      td.classList.toggle("here", column !== null && Number(td.getAttribute("data-points")) === column);
    });
  }

  var form = document.getElementById("calculator");
  form.addEventListener("input", function () { blocked = ""; compute(); });
  form.addEventListener("reset", function () { blocked = ""; setTimeout(compute, 0); });
  function load(row) {
    form.reset();
    blocked = "";
    try { fill(row); } catch (e) { blocked = "no score: " + e.message; }
    compute();
    var score = total.getAttribute("data-score");
    return score === "" ? [null, null] : [Number(score), Number(total.getAttribute("data-prediction"))];
  }

  function fromAddress(prefix) {
    var hash = window.location.hash;
    if (hash.indexOf(prefix) !== 0) { return undefined; }
    try { return JSON.parse(decodeURIComponent(hash.slice(prefix.length))); } catch (e) { return null; }
  }

  var one = fromAddress("#row="), many = fromAddress("#rows=");
  if (one) {
    load(one);
  } else if (Array.isArray(many)) {
    document.getElementById("batch").textContent = JSON.stringify(many.map(load));
  } else {
    blocked = (one === null || many !== undefined) ? "no score: the address holds no valid row" : "";
    compute();
  }
}());
