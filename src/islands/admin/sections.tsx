import { client } from '../../client/api';
import { FEE_TERMS } from '../../domain/car';
import type { ConsoleBrand } from '../../domain/console';
import { won as formatMoney } from '../../domain/money';
import { entityConfig, type EntityConfig } from './EntitySection';
import type { FieldDef } from './EntityForm';

/** A brand with its models, as GET /admin/brands lists it (the car forms' model picker). */
export type BrandOption = ConsoleBrand;

const modelOptions = (brands: BrandOption[]) => brands.flatMap((b) => b.models.map((m) => ({ value: m.id, label: `${b.name} ${m.name}` })));
const won = (v: unknown) => (typeof v === 'number' ? formatMoney(v) : '-');
const admin = client.admin;

type Extra = Partial<Omit<FieldDef, 'name'>>;
const text = <N extends string>(name: N, label: string, extra: Extra = {}): FieldDef<N> => ({ name, label, type: 'text', ...extra });
const num = <N extends string>(name: N, label: string, extra: Extra = {}): FieldDef<N> => ({ name, label, type: 'number', ...extra });

export function carsConfig(brands: BrandOption[]): EntityConfig {
  return entityConfig({
    title: '차량',
    list: admin.cars,
    routes: admin.cars,
    rows: (d) => d.cars,
    key: 'car',
    searchable: true,
    archivable: true,
    paged: true,
    summary: (r) => (
      <>
        <p className="font-semibold">
          {r.model.brand.name} {r.model.name} {r.sub_model ?? ''}
        </p>
        <p className="text-muted">
          최저 {won(r.subscription_fee_minimum)} · {r.license_plate ?? '번호 없음'}
          {r.is_new && ' · NEW'}
          {r.is_hot && ' · HOT'}
          {!r.is_subscriptable && ' · 구독 불가'}
          {r.archived_at && ' · 보관됨'}
        </p>
      </>
    ),
    fields: [
      { name: 'model_id', label: '모델', type: 'select', required: true, options: modelOptions(brands) },
      text('sub_model', '세부 모델'),
      text('trim', '트림'),
      text('color', '색상'),
      text('license_plate', '차량 번호'),
      num('mileage', '주행거리(km)'),
      num('retail_price', '차량 가격(원)'),
      { name: 'release_date', label: '출고일', type: 'date' },
      { name: 'subscription_available_from', label: '구독 가능일', type: 'date' },
      { name: 'is_subscriptable', label: '구독 가능', type: 'checkbox' },
      { name: 'is_new', label: 'NEW 표시', type: 'checkbox' },
      { name: 'is_hot', label: 'HOT 표시', type: 'checkbox' },
      ...FEE_TERMS.map((t) => num(`subscription_fee_${t}`, `${t}개월 월 구독료(원)`)),
      { name: 'option_prices', label: '옵션 요금 (주행거리·운전자·보증금·선납금·자기부담금)', type: 'option-prices' },
      { name: 'description', label: '설명', type: 'textarea' },
      { name: 'gallery', label: '사진', type: 'gallery' },
    ],
  });
}

export function butlerConfig(brands: BrandOption[]): EntityConfig {
  return entityConfig({
    title: '의전 차량',
    list: admin['butler-cars'],
    routes: admin['butler-cars'],
    rows: (d) => d.butler_cars,
    key: 'butler_car',
    searchable: true,
    archivable: true,
    summary: (r) => (
      <>
        <p className="font-semibold">
          {r.brand_name} {r.model_name} {r.sub_model ?? ''}
        </p>
        <p className="text-muted">
          8시간 {won(r.butler_fee)} · {r.license_plate ?? '번호 없음'}
          {r.archived_at && ' · 보관됨'}
        </p>
      </>
    ),
    fields: [
      { name: 'model_id', label: '모델', type: 'select', required: true, options: modelOptions(brands) },
      text('sub_model', '세부 모델'),
      num('butler_fee', '기본 요금(8시간, 원)', { required: true }),
      num('butler_overtime_fee', '초과 시간당 요금(원, 비우면 10%)'),
      text('color', '색상'),
      text('license_plate', '차량 번호'),
      num('mileage', '주행거리(km)'),
      num('retail_price', '차량 가격(원)'),
      { name: 'description', label: '설명', type: 'textarea' },
      { name: 'gallery', label: '사진', type: 'gallery' },
    ],
  });
}

export const brandsConfig: EntityConfig = entityConfig({
  title: '브랜드',
  list: admin.brands,
  routes: admin.brands,
  rows: (d) => d.brands,
  key: 'brand',
  summary: (r) => (
    <p>
      <span className="font-semibold">{r.name}</span> <span className="text-muted">/{r.slug} · 정렬 {r.sort_order} · 모델 {r.models?.length ?? 0}개</span>
    </p>
  ),
  fields: [text('name', '브랜드 이름', { required: true }), text('slug', '주소 이름(영문)', { required: true }), num('sort_order', '정렬 순서'), text('image', '로고 이미지 주소')],
});

export function modelsConfig(brands: BrandOption[]): EntityConfig {
  return entityConfig({
    title: '모델',
    list: admin.brands,
    routes: admin.models,
    rows: (d) => d.brands.flatMap((b) => b.models.map((m) => ({ ...m, brand_name: b.name }))),
    key: 'model',
    summary: (r) => (
      <p>
        <span className="text-muted">{r.brand_name}</span> <span className="font-semibold">{r.name}</span>
      </p>
    ),
    fields: [{ name: 'brand_id', label: '브랜드', type: 'select', required: true, options: brands.map((b) => ({ value: b.id, label: b.name })) }, text('name', '모델 이름', { required: true }), text('image', '이미지 주소')],
  });
}

export const faqConfig: EntityConfig = entityConfig({
  title: 'FAQ',
  list: admin.faqs,
  routes: admin.faqs,
  rows: (d) => d.faqs,
  key: 'faq',
  summary: (r) => (
    <p>
      <span className="font-semibold">{r.question}</span> <span className="text-muted">{r.category ?? ''}</span>
    </p>
  ),
  fields: [text('question', '질문', { required: true, wide: true }), { name: 'answer', label: '답변', type: 'textarea', required: true }, text('category', '분류'), num('sort_order', '정렬 순서')],
});

export const policyConfig: EntityConfig = entityConfig({
  title: '약관 문서',
  list: admin.policies,
  routes: admin.policies,
  rows: (d) => d.policies,
  key: 'policy',
  summary: (r) => (
    <p>
      <span className="text-muted">{r.kind === 'terms' ? '이용약관' : '개인정보처리방침'}</span> <span className="font-semibold">{r.title}</span>{' '}
      <span className="text-muted">
        v{r.version} · 시행 {r.effective_date}
      </span>
    </p>
  ),
  fields: [
    { name: 'kind', label: '종류', type: 'select', required: true, options: [{ value: 'terms', label: '이용약관' }, { value: 'privacy', label: '개인정보처리방침' }] },
    text('title', '제목', { required: true }),
    text('version', '버전', { required: true }),
    { name: 'effective_date', label: '시행일', type: 'date', required: true },
    { name: 'content', label: '본문', type: 'textarea', required: true },
  ],
});
