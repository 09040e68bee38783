import type { Page } from '@playwright/test';

/** Where the map SDK would come from; the pattern matches http and https. */
const KAKAO_SDK = '**/dapi.kakao.com/**';

/**
 * Stands in for the Kakao Maps SDK (react-kakao-maps-sdk loads it with autoload=false and
 * calls kakao.maps.load). The Map draws a placeholder, overlays are put into the map's
 * container so their labels can be read, markers are recorded on window.__kakaoMarkers,
 * and the geocoder answers with a fixed point, or ZERO_RESULT when `geocode` is 'fail'.
 */
export async function stubKakaoMaps(page: Page, { geocode = 'ok' }: { geocode?: 'ok' | 'fail' } = {}) {
  const script = `
(function () {
  function Base() {}
  // Any setter or getter the React wrapper calls is a harmless no-op.
  var noop = new Proxy({}, { get: function () { return function () {}; } });
  Object.setPrototypeOf(Base.prototype, noop);
  function LatLng(lat, lng) { this.lat = lat; this.lng = lng; }
  LatLng.prototype.getLat = function () { return this.lat; };
  LatLng.prototype.getLng = function () { return this.lng; };
  LatLng.prototype.equals = function (o) { return !!o && o.lat === this.lat && o.lng === this.lng; };
  function Coords(x, y) { this.x = x; this.y = y; }
  Object.setPrototypeOf(Coords.prototype, Base.prototype);
  function Map(container, opts) {
    this.container = container; this.center = opts.center;
    var tile = document.createElement('div');
    tile.setAttribute('data-testid', 'kakao-map-stub');
    tile.textContent = 'map';
    container.appendChild(tile);
  }
  Object.setPrototypeOf(Map.prototype, Base.prototype);
  Map.prototype.getCenter = function () { return this.center; };
  Map.prototype.setCenter = function (c) { this.center = c; };
  function Marker(opts) { this.opts = opts; (window.__kakaoMarkers = window.__kakaoMarkers || []).push(opts); }
  Object.setPrototypeOf(Marker.prototype, Base.prototype);
  Marker.prototype.setMap = function (m) { this.map = m; };
  // Like the real SDK, the content is wrapped at once (the React wrapper portals into that parent).
  function CustomOverlay(opts) { this.content = opts.content; this.wrap = document.createElement('div'); this.wrap.appendChild(opts.content); if (opts.map) this.setMap(opts.map); }
  Object.setPrototypeOf(CustomOverlay.prototype, Base.prototype);
  CustomOverlay.prototype.getContent = function () { return this.content; };
  CustomOverlay.prototype.setMap = function (m) { if (m) m.container.appendChild(this.wrap); else this.wrap.remove(); };
  function Geocoder() {}
  Geocoder.prototype.addressSearch = function (address, cb) {
    window.__kakaoGeocoded = address;
    setTimeout(function () {
      ${geocode === 'ok' ? "cb([{ x: '127.0446', y: '37.5246', address_name: address }], 'OK');" : "cb([], 'ZERO_RESULT');"}
    }, 0);
  };
  window.kakao = { maps: {
    load: function (cb) { cb(); },
    LatLng: LatLng, Coords: Coords, Map: Map, Marker: Marker, CustomOverlay: CustomOverlay,
    MarkerImage: function () {}, Size: function () {}, Point: function () {},
    MapTypeId: { ROADMAP: 1 },
    event: { addListener: function () {}, removeListener: function () {} },
    services: { Geocoder: Geocoder, Status: { OK: 'OK', ZERO_RESULT: 'ZERO_RESULT', ERROR: 'ERROR' } },
  } };
})();`;
  await page.route(KAKAO_SDK, (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: script }));
}

/** The SDK cannot load (network failure). */
export async function blockKakaoMaps(page: Page) {
  await page.route(KAKAO_SDK, (route) => route.abort());
}
