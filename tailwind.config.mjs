/** Design tokens; loaded by src/styles/global.css through @config. */
export default {
  content: ['./src/**/*.{astro,ts,tsx}'],
  theme: {
    extend: {
      colors: {
        ink: '#0b0b0c',
        paper: '#f7f6f3',
        gold: '#b8955a',
        line: '#e5e2dc',
        muted: '#6b6b6b',
      },
      fontFamily: {
        sans: ['Pretendard', 'system-ui', '-apple-system', 'Apple SD Gothic Neo', 'Noto Sans KR', 'sans-serif'],
      },
      height: { header: '56px' },
    },
  },
};
