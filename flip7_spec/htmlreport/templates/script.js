/* Optional: opens the collapsed part that holds a linked step, moves between steps with the keyboard, and
   opens or closes every game at once. The page reads the same without it. */
(function () {
  "use strict";
  function reveal(id) {
    var target = id ? document.getElementById(id) : null;
    for (var node = target; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") { node.open = true; }
    }
    return target;
  }
  function fromHash() {
    var target = reveal(decodeURIComponent(window.location.hash.slice(1)));
    if (target) { target.scrollIntoView(); }
  }
  document.addEventListener("click", function (event) {
    var link = event.target instanceof Element ? event.target.closest("a[href^='#']") : null;
    if (link) { reveal(link.getAttribute("href").slice(1)); }
  });
  window.addEventListener("hashchange", fromHash);
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName)) { return; }
    var rel = (event.key === "j" || event.key === "ArrowRight") ? "next" : (event.key === "k" || event.key === "ArrowLeft") ? "prev" : null;
    var here = document.getElementById(decodeURIComponent(window.location.hash.slice(1)));
    var step = here ? here.closest(".step, .panel") : null;
    var link = rel && step ? step.querySelector("nav.stepnav a[rel='" + rel + "']") : null;
    if (link) { event.preventDefault(); window.location.hash = link.getAttribute("href"); }
  });
  var games = document.querySelectorAll("details.game");
  var heading = document.querySelector("#failures > h2");
  if (games.length > 1 && heading) {
    var bar = document.createElement("p");
    bar.className = "toolbar";
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = "Open every game";
    button.addEventListener("click", function () {
      var open = button.textContent.indexOf("Open") === 0;
      games.forEach(function (game) { game.open = open; });
      button.textContent = open ? "Close every game" : "Open every game";
    });
    bar.appendChild(button);
    heading.insertAdjacentElement("afterend", bar);
  }
  fromHash();
}());
