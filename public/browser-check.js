(function (w, d) {
  var n = d.querySelector('[data-browser-notice]'), ua = navigator.userAgent, k = 'browserNoticeDismissed', s;
  if (!n) return;
  var c = /Chrom(?:e|ium)\/(\d+)/.exec(ua), f = /Firefox\/(\d+)/.exec(ua);
  var old = /MSIE |Trident\//.test(ua) || (c && +c[1] < 64) || (f && +f[1] < 63);
  var lacking = !('noModule' in d.createElement('script')) || !w.fetch || !w.Promise || !w.URLSearchParams || !(w.crypto && w.crypto.subtle);
  if (!old && !lacking) return;
  try { s = w.localStorage; if (s.getItem(k) === '1') return; } catch (e) {}
  n.hidden = false;
  var b = n.querySelector('[data-dismiss-notice]');
  if (b) b.onclick = function () { try { s.setItem(k, '1'); } catch (e) {} n.hidden = true; };
})(window, document);
