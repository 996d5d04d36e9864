/*
 * The browser recommendation: shown only to a browser older than Chrome 64 / Firefox 63, or one that lacks
 * what the portal's pages need (module scripts, fetch, Promise, URLSearchParams, WebCrypto). A classic
 * ES5 script on purpose: the browsers it is for cannot run the portal's module bundles at all.
 */
(function () {
  var notice = document.querySelector('[data-browser-notice]');
  if (!notice) return;
  var ua = navigator.userAgent;
  var chrome = /Chrom(?:e|ium)\/(\d+)/.exec(ua);
  var firefox = /Firefox\/(\d+)/.exec(ua);
  var old = /MSIE |Trident\//.test(ua) || (chrome && Number(chrome[1]) < 64) || (firefox && Number(firefox[1]) < 63);
  var lacking =
    !('noModule' in document.createElement('script')) ||
    !window.fetch ||
    !window.Promise ||
    !window.URLSearchParams ||
    !(window.crypto && window.crypto.subtle);
  if (!old && !lacking) return;
  var key = 'browserNoticeDismissed';
  try {
    if (window.localStorage.getItem(key) === '1') return;
  } catch (e) {
    // Storage refused (private mode): the notice shows, and its dismissal lasts for this page.
  }
  notice.hidden = false;
  var dismiss = notice.querySelector('[data-dismiss-notice]');
  if (dismiss)
    dismiss.addEventListener('click', function () {
      try {
        window.localStorage.setItem(key, '1');
      } catch (e) {}
      notice.hidden = true;
    });
})();
