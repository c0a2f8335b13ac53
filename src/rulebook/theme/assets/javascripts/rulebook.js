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
