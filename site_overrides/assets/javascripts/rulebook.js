// Language switcher: keep the reader on the same rule. The alternates link to the same page
// in each language; rule anchors are ids, identical in every language, so carry the hash.
document.addEventListener("click", function (event) {
  var link = event.target.closest && event.target.closest("a.rb-alternate");
  if (!link || !window.location.hash) return;
  var url = new URL(link.getAttribute("href"), window.location.href);
  url.hash = window.location.hash;
  link.setAttribute("href", url.toString());
}, true);
