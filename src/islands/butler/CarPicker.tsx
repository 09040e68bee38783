import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { ButlerCar } from '../../domain/butler';
import { won } from '../../domain/money';
import { coverOf } from '../../domain/photos';
import Picture from '../photos/Picture';

interface Props {
  cars: ButlerCar[];
  value: number | null;
  onChange: (carId: number) => void;
}


function CarRow({ car }: { car: ButlerCar }) {
  return (
    <span className="flex min-w-0 items-center gap-3">
      <Picture image={coverOf(car.gallery, { src: car.model.image, alt: '' })} sizes="96px" eager decorative className="h-[54px] w-24 shrink-0 bg-placeholder object-cover" />
      <span className="min-w-0">
        <span className="block text-[11px] font-semibold uppercase tracking-[0.2em] text-muted">{car.model.brand.name}</span>
        <span className="block truncate font-semibold">{car.model.name}</span>
        <span className="block truncate text-xs text-muted">{car.sub_model}</span>
        <span className="block text-sm">{won(car.butler_fee)}~</span>
      </span>
    </span>
  );
}

/** The car choice: a listbox of the fleet (image, brand, model, sub-model, 'fee원~'), max 300 px high, keyboard operable. */
export default function CarPicker({ cars, value, onChange }: Props) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const chosen = cars.find((c) => c.id === value) ?? null;

  useEffect(() => {
    if (open) list.current?.focus();
  }, [open]);
  useEffect(() => {
    if (open) list.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [open, active]);

  const show = () => {
    setActive(Math.max(0, cars.findIndex((c) => c.id === value)));
    setOpen(true);
  };
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const pick = (i: number) => {
    if (cars[i]) onChange(cars[i].id);
    close();
  };
  const onButtonKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      show();
    }
  };
  const onListKey = (e: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowDown: active + 1, ArrowUp: active - 1, Home: 0, End: cars.length - 1, PageDown: active + 4, PageUp: active - 4 };
    if (e.key in moves) setActive(Math.min(cars.length - 1, Math.max(0, moves[e.key])));
    else if (e.key === 'Enter' || e.key === ' ') pick(active);
    else if (e.key === 'Escape') close();
    else if (e.key === 'Tab') setOpen(false);
    else return;
    if (e.key !== 'Tab') e.preventDefault();
  };

  return (
    <div className="relative">
      <span id="car-label" className="mb-1 block text-sm font-semibold">차량 선택</span>
      <button
        ref={button}
        id="car-button"
        type="button"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-labelledby="car-label car-button"
        onClick={() => (open ? setOpen(false) : show())}
        onKeyDown={onButtonKey}
        className="flex w-full items-center justify-between gap-3 border border-line bg-white px-3 py-2 text-left"
        data-testid="car-picker"
      >
        {chosen ? <CarRow car={chosen} /> : <span className="py-4 text-muted">차량을 선택해주세요</span>}
        <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <ul
          ref={list}
          role="listbox"
          tabIndex={-1}
          aria-labelledby="car-label"
          aria-activedescendant={cars[active] ? `car-option-${cars[active].id}` : undefined}
          onKeyDown={onListKey}
          onBlur={(e) => !e.currentTarget.contains(e.relatedTarget) && e.relatedTarget !== button.current && setOpen(false)}
          className="absolute z-20 mt-1 max-h-[300px] w-full overflow-auto border border-line bg-white shadow-lg outline-none"
          data-testid="car-options"
        >
          {cars.map((car, i) => (
            <li
              key={car.id}
              id={`car-option-${car.id}`}
              role="option"
              aria-selected={car.id === value}
              data-index={i}
              onMouseEnter={() => setActive(i)}
              onClick={() => pick(i)}
              className={`cursor-pointer px-3 py-2 ${i === active ? 'bg-paper outline outline-1 -outline-offset-1 outline-gold' : ''}`}
            >
              <CarRow car={car} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
