import type { Page } from '@playwright/test';

/** The script react-daum-postcode v4 loads (it then reads window.kakao.Postcode, else window.daum.Postcode). */
const POSTCODE_SCRIPT = 'https://t1.kakaocdn.net/mapjsapi/bundle/postcode/prod/postcode.v2.js';

/** A road address as the postcode service hands it to oncomplete. */
export function sampleAddress(address: string, zonecode: string, sigungu: string) {
  return {
    address, zonecode, roadAddress: address, jibunAddress: '', addressType: 'R', userSelectedType: 'R',
    buildingName: '', bname: '', apartment: 'N', sido: address.split(' ')[0], sigungu, bcode: '', query: '',
  };
}

/** The results the stand-in lists, in order. */
const POSTCODE_RESULTS = [
  sampleAddress('서울 강남구 테헤란로 152', '06236', '강남구'),
  sampleAddress('인천 중구 공항로 272', '22382', '중구'),
  sampleAddress('서울 중구 세종대로 110', '04524', '중구'),
];

/**
 * Stands in for the postcode script: window.kakao.Postcode is a class built with the options
 * (oncomplete, onclose, …); embed(el) renders a list of result buttons inside el, each of
 * which calls oncomplete with its address (open() completes with the first).
 */
export async function mockPostcode(page: Page, results = POSTCODE_RESULTS) {
  const body = `(function () {
    var results = ${JSON.stringify(results)};
    function Postcode(options) { this.options = options || {}; }
    Postcode.prototype.embed = function (el, embedOptions) {
      var self = this;
      var list = document.createElement('ul');
      list.setAttribute('aria-label', '주소 검색 결과');
      list.setAttribute('data-postcode-stub', (embedOptions && embedOptions.q) || '');
      results.forEach(function (a) {
        var li = document.createElement('li');
        var b = document.createElement('button');
        b.type = 'button';
        b.textContent = a.address + ' (' + a.zonecode + ')';
        b.addEventListener('click', function () {
          if (self.options.oncomplete) self.options.oncomplete(a);
          if (self.options.onclose) self.options.onclose('COMPLETE_CLOSE');
        });
        li.appendChild(b);
        list.appendChild(li);
      });
      el.appendChild(list);
    };
    Postcode.prototype.open = function () { if (this.options.oncomplete) this.options.oncomplete(results[0]); };
    window.kakao = window.kakao || {};
    window.kakao.Postcode = Postcode;
    window.kakao.postcode = { load: function (fn) { fn(); }, version: 'stub', _validParam_: true };
  })();`;
  await page.route(POSTCODE_SCRIPT, (route) => route.fulfill({ contentType: 'text/javascript', body }));
}

/** The postcode service is down: its script fails to load. */
export async function blockPostcode(page: Page) {
  await page.route(POSTCODE_SCRIPT, (route) => route.abort('connectionfailed'));
}

/** The postcode service hangs: its script request is never answered (the page keeps waiting). */
export async function hangPostcode(page: Page) {
  await page.route(POSTCODE_SCRIPT, () => {
    // Never fulfilled, continued or aborted.
  });
}
