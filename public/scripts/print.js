// Sandbox receipts: the 인쇄하기 button prints the page (a file, so the Content-Security-Policy needs no inline script).
for (const button of document.querySelectorAll('[data-print]')) button.addEventListener('click', () => window.print());
