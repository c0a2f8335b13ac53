// Language switcher: keep the reader on the same rule. The alternates link to the same page
// in each language; rule anchors are ids, identical in every language, so carry the hash.
// Runs in the capture phase and stops there: Material's own alternate-link handler expects
// language roots with their own sitemap, and would send the reader to the page top instead.
document.addEventListener("click", function (event) {
  var link = event.target.closest && event.target.closest("a.rb-alternate");
  if (!link || event.metaKey || event.ctrlKey) return;
  var url = new URL(link.getAttribute("href"), window.location.href);
  url.hash = window.location.hash;
  link.setAttribute("href", url.toString());
  event.stopPropagation();
}, true);

// Cross-references and a proof's rule links: hovering or focusing one shows what it names (its
// number, title and first sentence, in the page's language: the link's title, which the site
// writes) in a box beside it, without leaving the page; Escape or leaving closes it. The title
// moves into the box, so the browser's own tooltip does not repeat it on hover.
(function () {
  var LINKS = "a.rb-xref, a.rb-step-link";
  var box = null, owner = null;
  function linkOf(node) {
    return node && node.closest ? node.closest(LINKS) : null;
  }
  function show(link) {
    var text = link.getAttribute("title") || link.getAttribute("data-rb-preview");
    if (!text) return;
    if (link.hasAttribute("title")) {
      link.setAttribute("data-rb-preview", text);
      link.removeAttribute("title");
    }
    if (!box) {
      box = document.createElement("div");
      box.className = "rb-preview";
      box.id = "rb-preview";
      box.setAttribute("role", "tooltip");
      document.body.appendChild(box);
    }
    if (owner && owner !== link) owner.removeAttribute("aria-describedby");
    owner = link;
    box.textContent = text;
    box.lang = link.closest("[lang]") ? link.closest("[lang]").lang : document.documentElement.lang;
    box.hidden = false;
    link.setAttribute("aria-describedby", box.id);
    var at = link.getBoundingClientRect();
    var room = document.documentElement.clientWidth;
    var left = Math.max(8, Math.min(at.left, room - box.offsetWidth - 8));
    box.style.left = (left + window.scrollX) + "px";
    box.style.top = (at.bottom + window.scrollY + 6) + "px";
  }
  function hide() {
    if (box) box.hidden = true;
    if (owner) owner.removeAttribute("aria-describedby");
    owner = null;
  }
  document.addEventListener("mouseover", function (event) {
    var link = linkOf(event.target);
    if (link) show(link);
  });
  document.addEventListener("mouseout", function (event) {
    var link = linkOf(event.target);
    if (link && link === owner && !link.contains(event.relatedTarget)) hide();
  });
  document.addEventListener("focusin", function (event) {
    var link = linkOf(event.target);
    if (link) show(link);
  });
  document.addEventListener("focusout", function (event) {
    if (linkOf(event.target) === owner) hide();
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") hide();
  });
})();
