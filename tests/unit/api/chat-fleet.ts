import type { ChatCar } from '../../../src/domain/chat/fleet';

const car = (id: number, brand: string, model: string, sub: string, fee: number, overtime: number | null, reserved: string[] = []): ChatCar => ({
  id,
  sub_model: sub,
  butler_fee: fee,
  butler_overtime_fee: overtime,
  butler_reservated_dates: reserved,
  model: { name: model, brand: { name: brand } },
});

/** The seed's butler fleet, with a few reserved days around TODAY (Wednesday 2026-03-11). */
export const FLEET: ChatCar[] = [
  car(1, 'Mercedes Benz', 'Maybach S-Class', 'S 680 4MATIC (4인승)', 1_200_000, 150_000, ['2026-03-13', '2026-03-20']),
  car(2, 'Mercedes Benz', 'S-Class', 'S 580 4MATIC Long (4인승)', 750_000, 90_000),
  car(3, 'Rolls-Royce', 'Ghost', 'Series II (4인승)', 1_800_000, null, ['2026-03-14']),
  car(4, 'Rolls-Royce', 'Cullinan', 'Series II (5인승)', 2_000_000, 220_000),
  car(5, 'Bentley', 'Bentayga', 'EWB V8 (4인승)', 1_100_000, 130_000),
  car(6, 'BMW', 'i7', 'xDrive60 (4인승)', 700_000, 85_000),
  car(7, 'Mercedes Benz', 'G-Class', 'AMG G 63 (5인승)', 900_000, null),
  car(8, 'Kia', 'Carnival Hi-Limousine', '3.5 가솔린 (7인승)', 450_000, 55_000, ['2026-03-13']),
  car(9, 'Genesis', 'G90', '3.5T AWD Long (4인승)', 550_000, 65_000),
];

/** Wednesday 11 March 2026, 10:00 in Seoul. */
export const NOW = new Date('2026-03-11T01:00:00Z');
export const TODAY = '2026-03-11';
