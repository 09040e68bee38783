/** The opening catalogue: brands, models with body style and list price in won, butler fleet. */
export type BodyStyle = 'coupe' | 'suv' | 'sedan' | 'roadster' | 'van';

export interface ModelSeed {
  name: string;
  slug: string;
  body: BodyStyle;
  /** List price in won. */
  price: number;
  subModels: string[];
  trims: string[];
  /** Signature paint for the bundled artwork. */
  paint: string;
}

export interface BrandSeed {
  name: string;
  slug: string;
  models: ModelSeed[];
}

export const BRANDS: BrandSeed[] = [
  {
    name: 'Ferrari', slug: 'ferrari', models: [
      { name: '296 GTB', slug: 'ferrari-296-gtb', body: 'coupe', price: 388_000_000, subModels: ['3.0 V6 PHEV'], trims: ['Assetto Fiorano', 'Standard'], paint: '#c8102e' },
      { name: 'Roma Spider', slug: 'ferrari-roma', body: 'roadster', price: 312_000_000, subModels: ['3.9 V8 Twin Turbo'], trims: ['Standard'], paint: '#8a1c1c' },
      { name: 'SF90 Stradale', slug: 'ferrari-sf90', body: 'coupe', price: 585_000_000, subModels: ['4.0 V8 PHEV'], trims: ['Assetto Fiorano'], paint: '#d4202c' },
      { name: 'Purosangue', slug: 'ferrari-purosangue', body: 'suv', price: 620_000_000, subModels: ['6.5 V12'], trims: ['Standard'], paint: '#1d2b44' },
      { name: '12Cilindri', slug: 'ferrari-12cilindri', body: 'coupe', price: 575_000_000, subModels: ['6.5 V12'], trims: ['Standard'], paint: '#e8b400' },
    ],
  },
  {
    name: 'Lamborghini', slug: 'lamborghini', models: [
      { name: 'Huracán', slug: 'lamborghini-huracan', body: 'coupe', price: 368_000_000, subModels: ['EVO 5.2 V10', 'STO 5.2 V10', 'Tecnica 5.2 V10'], trims: ['Standard'], paint: '#7cb518' },
      { name: 'Urus', slug: 'lamborghini-urus', body: 'suv', price: 298_000_000, subModels: ['S 4.0 V8', 'Performante 4.0 V8'], trims: ['Standard'], paint: '#f28c00' },
      { name: 'Revuelto', slug: 'lamborghini-revuelto', body: 'coupe', price: 730_000_000, subModels: ['6.5 V12 HPEV'], trims: ['Standard'], paint: '#2d6cdf' },
    ],
  },
  {
    name: 'Mercedes Benz', slug: 'mercedes', models: [
      { name: 'S-Class', slug: 'mercedes-s-class', body: 'sedan', price: 189_000_000, subModels: ['S 500 4MATIC', 'S 580 4MATIC'], trims: ['Long', 'AMG Line'], paint: '#1b1b1f' },
      { name: 'G-Class', slug: 'mercedes-g-class', body: 'suv', price: 256_000_000, subModels: ['AMG G 63', 'G 450 d'], trims: ['Standard', 'Manufaktur'], paint: '#3b4a3f' },
      { name: 'AMG GT', slug: 'mercedes-amg-gt', body: 'coupe', price: 212_000_000, subModels: ['63 4MATIC+', '55 4MATIC+'], trims: ['Standard'], paint: '#9aa0a6' },
      { name: 'E-Class', slug: 'mercedes-e-class', body: 'sedan', price: 89_000_000, subModels: ['E 300 4MATIC', 'E 450 4MATIC'], trims: ['Exclusive', 'AMG Line'], paint: '#5b6b7a' },
      { name: 'Maybach S-Class', slug: 'mercedes-maybach-s', body: 'sedan', price: 298_000_000, subModels: ['S 680 4MATIC'], trims: ['Standard'], paint: '#2a2030' },
    ],
  },
  {
    name: 'Porsche', slug: 'porsche', models: [
      { name: '911', slug: 'porsche-911', body: 'coupe', price: 178_000_000, subModels: ['Carrera S', 'Carrera 4 GTS', 'Turbo S'], trims: ['Standard', 'Sport Chrono'], paint: '#b7bcc2' },
      { name: 'Taycan', slug: 'porsche-taycan', body: 'sedan', price: 148_000_000, subModels: ['4S', 'Turbo'], trims: ['Standard'], paint: '#3f6e8c' },
      { name: 'Cayenne', slug: 'porsche-cayenne', body: 'suv', price: 142_000_000, subModels: ['E-Hybrid', 'Turbo E-Hybrid'], trims: ['Standard', 'Coupé'], paint: '#24324a' },
      { name: 'Panamera', slug: 'porsche-panamera', body: 'sedan', price: 168_000_000, subModels: ['4 E-Hybrid', 'GTS'], trims: ['Standard'], paint: '#4a4a4a' },
    ],
  },
  {
    name: 'BMW', slug: 'bmw', models: [
      { name: 'M5', slug: 'bmw-m5', body: 'sedan', price: 167_000_000, subModels: ['4.4 V8 PHEV'], trims: ['Standard'], paint: '#1f4e9c' },
      { name: 'X7', slug: 'bmw-x7', body: 'suv', price: 145_000_000, subModels: ['xDrive40i', 'M60i xDrive'], trims: ['M Sport', 'Design Pure Excellence'], paint: '#2b2b2b' },
      { name: 'i7', slug: 'bmw-i7', body: 'sedan', price: 184_000_000, subModels: ['xDrive60', 'M70 xDrive'], trims: ['M Sport'], paint: '#6b4e8a' },
      { name: 'M8', slug: 'bmw-m8', body: 'coupe', price: 226_000_000, subModels: ['Competition Coupé'], trims: ['Standard'], paint: '#0e6b58' },
    ],
  },
  {
    name: 'Bentley', slug: 'bentley', models: [
      { name: 'Continental GT', slug: 'bentley-continental-gt', body: 'coupe', price: 342_000_000, subModels: ['Speed', 'V8'], trims: ['Mulliner', 'Standard'], paint: '#1e4d3a' },
      { name: 'Bentayga', slug: 'bentley-bentayga', body: 'suv', price: 318_000_000, subModels: ['EWB V8'], trims: ['Azure'], paint: '#5a3d2b' },
    ],
  },
  {
    name: 'Rolls-Royce', slug: 'rolls-royce', models: [
      { name: 'Ghost', slug: 'rolls-royce-ghost', body: 'sedan', price: 470_000_000, subModels: ['Series II'], trims: ['Standard', 'Black Badge'], paint: '#202a3a' },
      { name: 'Cullinan', slug: 'rolls-royce-cullinan', body: 'suv', price: 560_000_000, subModels: ['Series II'], trims: ['Standard'], paint: '#e9e4da' },
    ],
  },
  {
    name: 'McLaren', slug: 'mclaren', models: [
      { name: '750S', slug: 'mclaren-750s', body: 'coupe', price: 420_000_000, subModels: ['4.0 V8 Twin Turbo'], trims: ['Standard', 'Spider'], paint: '#ff7a00' },
      { name: 'Artura', slug: 'mclaren-artura', body: 'coupe', price: 298_000_000, subModels: ['3.0 V6 Hybrid'], trims: ['Standard'], paint: '#35a0c9' },
    ],
  },
  {
    name: 'Aston Martin', slug: 'aston-martin', models: [
      { name: 'DB12', slug: 'aston-martin-db12', body: 'coupe', price: 338_000_000, subModels: ['4.0 V8'], trims: ['Standard', 'Volante'], paint: '#0f5c45' },
      { name: 'Vantage', slug: 'aston-martin-vantage', body: 'coupe', price: 248_000_000, subModels: ['4.0 V8'], trims: ['Standard'], paint: '#c4d600' },
    ],
  },
];

export const COLORS = ['Rosso Corsa', 'Nero', 'Bianco', 'Grigio Titanio', 'Blu Tour de France', 'Verde Mantis', 'Obsidian Black', 'Selenite Grey', 'Chalk', 'Gentian Blue', 'Frozen Deep Grey'];

export const DESCRIPTIONS = [
  '국내 정식 출고 차량으로, 전담 매니저가 인도부터 반납까지 함께합니다. 정기 점검과 소모품 교체가 구독료에 포함되어 있습니다.',
  '출고 1년 미만의 컨디션 좋은 차량입니다. 실내 가죽 관리와 외관 PPF 시공이 완료되어 바로 인도 가능합니다.',
  '주말 드라이브와 비즈니스 일정 모두에 어울리는 구성입니다. 보험, 자동차세, 정비가 모두 포함된 올인원 구독입니다.',
  '무사고, 1인 관리 차량입니다. 구독 기간 중 차량 교체 프로그램을 이용할 수 있습니다.',
  '희소한 사양의 차량으로 구독 문의가 많습니다. 원하시는 날짜에 자택 또는 사무실로 탁송해드립니다.',
];

export interface ButlerSeed {
  brand: string;
  model: string;
  modelSlug: string;
  body: BodyStyle;
  paint: string;
  subModel: string;
  fee: number;
  overtime: number | null;
  price: number;
  description: string;
}

/** The chauffeured fleet; fee covers 8 hours with a driver. */
export const BUTLER_FLEET: ButlerSeed[] = [
  { brand: 'Mercedes Benz', model: 'Maybach S-Class', modelSlug: 'mercedes-maybach-s', body: 'sedan', paint: '#2a2030', subModel: 'S 680 4MATIC (4인승)', fee: 1_200_000, overtime: 150_000, price: 298_000_000, description: 'VIP 의전의 기준. 뒷좌석 이그제큐티브 시트와 쇼퍼 패키지를 갖췄습니다.' },
  { brand: 'Mercedes Benz', model: 'S-Class', modelSlug: 'mercedes-s-class', body: 'sedan', paint: '#1b1b1f', subModel: 'S 580 4MATIC Long (4인승)', fee: 750_000, overtime: 90_000, price: 189_000_000, description: '비즈니스 미팅과 공항 픽업에 가장 많이 선택되는 차량입니다.' },
  { brand: 'Rolls-Royce', model: 'Ghost', modelSlug: 'rolls-royce-ghost', body: 'sedan', paint: '#202a3a', subModel: 'Series II (4인승)', fee: 1_800_000, overtime: null, price: 470_000_000, description: '웨딩과 기념일을 위한 최고급 의전 차량입니다.' },
  { brand: 'Rolls-Royce', model: 'Cullinan', modelSlug: 'rolls-royce-cullinan', body: 'suv', paint: '#e9e4da', subModel: 'Series II (5인승)', fee: 2_000_000, overtime: 220_000, price: 560_000_000, description: '넓은 실내와 압도적인 존재감의 럭셔리 SUV입니다.' },
  { brand: 'Bentley', model: 'Bentayga', modelSlug: 'bentley-bentayga', body: 'suv', paint: '#5a3d2b', subModel: 'EWB V8 (4인승)', fee: 1_100_000, overtime: 130_000, price: 318_000_000, description: '가족 행사와 골프 라운딩에 어울리는 롱휠베이스 SUV입니다.' },
  { brand: 'BMW', model: 'i7', modelSlug: 'bmw-i7', body: 'sedan', paint: '#6b4e8a', subModel: 'xDrive60 (4인승)', fee: 700_000, overtime: 85_000, price: 184_000_000, description: '조용한 전기 플래그십 세단. 뒷좌석 시어터 스크린을 갖췄습니다.' },
  { brand: 'Mercedes Benz', model: 'G-Class', modelSlug: 'mercedes-g-class', body: 'suv', paint: '#3b4a3f', subModel: 'AMG G 63 (5인승)', fee: 900_000, overtime: null, price: 256_000_000, description: '행사 에스코트와 촬영에 많이 쓰이는 상징적인 SUV입니다.' },
  { brand: 'Kia', model: 'Carnival Hi-Limousine', modelSlug: 'kia-carnival-hi-limousine', body: 'van', paint: '#222222', subModel: '3.5 가솔린 (7인승)', fee: 450_000, overtime: 55_000, price: 78_000_000, description: '단체 이동과 공항 픽업을 위한 하이루프 리무진입니다.' },
  { brand: 'Genesis', model: 'G90', modelSlug: 'genesis-g90', body: 'sedan', paint: '#2f2f35', subModel: '3.5T AWD Long (4인승)', fee: 550_000, overtime: 65_000, price: 160_000_000, description: '국내 기업 의전에 가장 많이 쓰이는 플래그십 세단입니다.' },
];
