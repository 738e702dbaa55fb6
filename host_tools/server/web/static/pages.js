// What the pages do in the browser, from a file: the Content-Security-Policy (script-src 'self')
// allows no inline script or handler. data-submit: a select that submits its form when changed
// (the language switch); data-print: a button that prints the page (table sheets).
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("select[data-submit]").forEach(function (s) {
    s.addEventListener("change", function () { s.form.submit(); });
  });
  document.querySelectorAll("button[data-print]").forEach(function (b) {
    b.addEventListener("click", function () { window.print(); });
  });
});
