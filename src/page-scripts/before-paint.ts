/**
 * The scripts that must run before the first paint, inlined into the page (a request for a
 * file of a few hundred bytes would hold the first paint up on a slow network: issue 37). Their
 * text is the same on every page (what varies comes as data attributes), so the
 * Content-Security-Policy allows each by one hash (src/api/security-headers.ts).
 */

/**
 * The service mode (src/layouts/Layout.astro), on <html>, in <head>: a script in the body would be a
 * point where the parser may paint what it has so far (the header alone), which put the first view's
 * largest text in a later frame (issue 37). Only where the build cannot know it: home, which also
 * serves unknown paths (their mode comes from the address), and pages of neither mode (the remembered
 * one). Table: src/domain/routes.ts; store: src/stores/mode.ts.
 */
export const MODE_SCRIPT = `(function(){var d=document.currentScript.dataset,p=location.pathname,m='subscribe';if(new RegExp(d.butler).test(p))m='butler';else if(!new RegExp(d.subscribe).test(p)){try{if(localStorage.getItem(d.serviceKey)==='butler')m='butler'}catch(e){}}document.documentElement.dataset.mode=m})();`;

/**
 * The session guard (src/layouts/Layout.astro; rules: src/stores/session.ts): a protected page never
 * flashes for a visitor, and a logged-in visitor of /login or /signup goes to /my. An expired
 * session is cleared first.
 */
export const SESSION_GUARD_SCRIPT = `(function(){var d=document.currentScript.dataset,g=d.guard,k=JSON.parse(d.keys),s=window.localStorage,n=Math.floor(Date.now()/1000),t=s.getItem(k.access),x=s.getItem(k.expiry),v=!!t&&(x===null||n<Number(x)||!!s.getItem(k.refresh));if(t&&!v){[k.access,k.refresh,k.expiry,k.identity].forEach(function(i){s.removeItem(i)});document.cookie=k.userCookie+'=; Max-Age=0; path=/'}if(g==='user'&&!v){s.setItem(k.redirect,location.pathname+location.search);location.replace('/login')}else if(g==='guest'&&v){location.replace('/my')}})();`;

/**
 * The brand face (docs/decisions/fonts.md): Pretendard draws a page only once this browser has the
 * core file (fetched after an earlier page's load event, remembered in local storage under its
 * version); a first visit paints at once in the system's Korean face and downloads no font before load.
 * The file is preloaded from the cache, so it is there before the first paint; its face is `swap`
 * (an `optional` face lost its 100 ms to a busy phone now and then and kept the system face).
 */
export const BRAND_FONT_SCRIPT = `(function(){var d=document.currentScript.dataset;try{if(localStorage.getItem(d.key)!==d.version)return}catch(e){return}document.documentElement.classList.add('brand-font');var l=document.createElement('link');l.rel='preload';l.as='font';l.type='font/woff2';l.href=d.href;l.crossOrigin='';document.head.appendChild(l)})();`;

/** The class on <html> while a session is (likely) there; Header.astro's style shows 로그인 or 마이페이지 by it. */
export const SIGNED_IN_CLASS = 'signed-in';

/**
 * Signed in or not, before paint (src/layouts/Layout.astro): the header's 로그인 / 마이페이지 link
 * shows the right word from the first paint instead of changing after the header's script ran, which
 * moved it (a layout shift). A stored access token is the guess; the header's script checks the
 * session properly and corrects the class (src/components/header-client.ts).
 */
export const SIGNED_IN_SCRIPT = `(function(){try{if(localStorage.getItem(document.currentScript.dataset.key))document.documentElement.classList.add('${SIGNED_IN_CLASS}')}catch(e){}})();`;
