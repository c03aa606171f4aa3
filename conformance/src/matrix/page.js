// The matrix page's filters and cell details. The table itself is plain
// HTML and reads without this script; the script only hides rows and shows
// one cell's full request, expected and actual answers.
(function () {
  "use strict";
  var rows = Array.prototype.slice.call(document.querySelectorAll("tr.vector"));
  var groups = Array.prototype.slice.call(document.querySelectorAll("tbody.group"));
  var disagree = document.getElementById("only-disagree");
  var kinds = Array.prototype.slice.call(document.querySelectorAll("input.kind"));
  var shown = document.getElementById("shown");
  var detail = document.getElementById("detail");
  var names = Array.prototype.map.call(document.querySelectorAll("thead th.impl"), function (th) {
    return th.getAttribute("data-name");
  });

  function apply() {
    var wanted = {};
    kinds.forEach(function (k) { if (k.checked) { wanted[k.value] = true; } });
    rows.forEach(function (row) {
      row.hidden = !(wanted[row.getAttribute("data-kind")] &&
                     (!disagree.checked || row.getAttribute("data-agree") === "0"));
    });
    groups.forEach(function (group) {
      group.hidden = !group.querySelector("tr.vector:not([hidden])");
    });
    // Counted from what the browser lays out, not from the flags above.
    var visible = rows.filter(function (row) { return row.offsetParent !== null; }).length;
    shown.textContent = "Showing " + visible + " of " + rows.length + " vectors";
    shown.setAttribute("data-visible", String(visible));
    saveHash();
  }

  function saveHash() {
    var parts = [];
    if (disagree.checked) { parts.push("disagree"); }
    var off = kinds.filter(function (k) { return !k.checked; });
    if (off.length) {
      parts.push("kinds=" + kinds.filter(function (k) { return k.checked; })
        .map(function (k) { return k.value.replace(" ", "-"); }).join(","));
    }
    var selected = document.querySelector("td.selected");
    if (selected) { parts.push("show=" + selected.parentNode.id.slice(2) + "@" + cellIndex(selected)); }
    var hash = parts.length ? "#" + parts.join("&") : "";
    if (location.hash !== hash) { history.replaceState(null, "", location.pathname + location.search + hash); }
  }

  function cellIndex(td) {
    return Array.prototype.indexOf.call(td.parentNode.querySelectorAll("td"), td);
  }

  function field(label, text) {
    var dt = document.createElement("dt");
    dt.textContent = label;
    var dd = document.createElement("dd");
    dd.className = "mono";
    dd.textContent = text;
    return [dt, dd];
  }

  function show(td) {
    var previous = document.querySelector("td.selected");
    if (previous) { previous.classList.remove("selected"); }
    td.classList.add("selected");
    var row = td.parentNode;
    var list = detail.querySelector("dl");
    list.textContent = "";
    var items = [
      ["vector", row.id.slice(2) + "  (" + row.getAttribute("data-location") + ")"],
      ["description", row.getAttribute("data-description")],
      ["implementation", names[cellIndex(td)]],
      ["outcome", td.getAttribute("data-outcome")],
      ["request", row.getAttribute("data-request")],
      ["expected", row.getAttribute("data-expected")],
      ["got", td.hasAttribute("data-got") ? td.getAttribute("data-got") : "the expected answer"]
    ];
    if (td.hasAttribute("data-why")) { items.push(["why", td.getAttribute("data-why")]); }
    if (row.hasAttribute("data-source")) { items.splice(2, 0, ["source", row.getAttribute("data-source")]); }
    items.forEach(function (item) {
      field(item[0], item[1]).forEach(function (node) { list.appendChild(node); });
    });
    [["reference", "REFERENCE.md row"], ["note", "note"]].forEach(function (link) {
      if (!row.hasAttribute("data-" + link[0])) { return; }
      var dt = document.createElement("dt");
      dt.textContent = link[1];
      var dd = document.createElement("dd");
      var a = document.createElement("a");
      a.href = row.getAttribute("data-" + link[0]);
      a.textContent = a.href;
      dd.appendChild(a);
      list.appendChild(dt);
      list.appendChild(dd);
    });
    detail.hidden = false;
    saveHash();
  }

  function readHash() {
    var parts = location.hash.replace(/^#/, "").split("&");
    var only = null;
    var target = null;
    parts.forEach(function (part) {
      if (part === "disagree") { disagree.checked = true; }
      if (part.indexOf("kinds=") === 0) {
        only = {};
        part.slice(6).split(",").forEach(function (k) { only[k.replace("-", " ")] = true; });
      }
      if (part.indexOf("show=") === 0) { target = part.slice(5); }
    });
    if (only) { kinds.forEach(function (k) { k.checked = !!only[k.value]; }); }
    return target;
  }

  document.getElementById("filters").hidden = false;
  disagree.addEventListener("change", apply);
  kinds.forEach(function (k) { k.addEventListener("change", apply); });
  document.querySelector("table.matrix").addEventListener("click", function (event) {
    var td = event.target.closest("td");
    if (td) { show(td); }
  });
  detail.querySelector("button").addEventListener("click", function () {
    detail.hidden = true;
    var selected = document.querySelector("td.selected");
    if (selected) { selected.classList.remove("selected"); }
    saveHash();
  });
  var target = readHash();
  apply();
  if (target) {
    var at = target.lastIndexOf("@");
    var row = document.getElementById("v-" + target.slice(0, at));
    var td = row && row.querySelectorAll("td")[Number(target.slice(at + 1))];
    if (td) { show(td); }
  }
}());
