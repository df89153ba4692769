import type { DocSet } from './doc-set.ts';
import { EARTH_RADIUS_KM } from './geo.ts';
import { IntBuffer } from './int-lists.ts';

const CELL_DEGREES = 0.5;
const ROWS = 180 / CELL_DEGREES;
const COLUMNS = 360 / CELL_DEGREES;
/** Slack around the bounding box, so rounding in the box never drops a doc the distance keeps. */
const MARGIN_DEGREES = 0.01;
const MARGIN_RADIANS = 1e-6;
const DEGREES = 180 / Math.PI;

/**
 * The docs that may lie within a distance: runs `[from, to)` of `docs`. A superset; the exact
 * distance still decides.
 */
export type GeoCandidates = {
  docs: Int32Array;
  ranges: number[];
  size: number;
  /** The docs' columns in the order of `docs`, so a walk of a run reads memory in sequence. */
  placed: PlacedColumns;
};

/** Columns copied in cell order: the few a distance filter reads for every candidate. */
export type PlacedColumns = {
  lat: Float64Array;
  lng: Float64Array;
  cosLat: Float64Array;
  /** Unit vectors, three numbers a doc. */
  unit: Float64Array;
  container: Int32Array;
};

/**
 * Docs with coordinates bucketed into 0.5° cells, so a distance filter visits the cells of the
 * circle's bounding box instead of every doc. Cells of one row are contiguous, so each row of
 * the box is one run (two across the antimeridian).
 */
export class GeoGrid {
  /** Doc indices ordered by cell; coordinates outside the globe's range come last. */
  readonly #docs: Int32Array;
  readonly #placed: PlacedColumns;
  readonly #cellStarts: Int32Array;
  readonly #strayStart: number;
  /** Per doc, its position in `#docs`; -1 for a doc without coordinates. */
  readonly #positionOf: Int32Array;
  /** Per set asked for, its docs' positions (null: asked for once, not made yet). */
  readonly #positions = new WeakMap<DocSet, Int32Array | null>();

  constructor(columns: PlacedColumns) {
    const { lat, lng } = columns;
    const cells = new Int32Array(lat.length).fill(-1);
    const counts = new Int32Array(ROWS * COLUMNS + 1);
    const strays: number[] = [];
    for (let i = 0; i < lat.length; i++) {
      const y = lat[i] as number;
      const x = lng[i] as number;
      if (Number.isNaN(y) || Number.isNaN(x)) continue;
      if (Math.abs(y) > 90 || Math.abs(x) > 180) {
        strays.push(i);
        continue;
      }
      const cell = rowOf(y) * COLUMNS + columnOf(x);
      cells[i] = cell;
      counts[cell + 1] = (counts[cell + 1] as number) + 1;
    }
    for (let c = 0; c < ROWS * COLUMNS; c++) {
      counts[c + 1] = (counts[c + 1] as number) + (counts[c] as number);
    }
    this.#cellStarts = counts;
    const placed = counts[ROWS * COLUMNS] as number;
    this.#strayStart = placed;
    const docs = new Int32Array(placed + strays.length);
    const fill = counts.slice(0, ROWS * COLUMNS);
    for (let i = 0; i < cells.length; i++) {
      const cell = cells[i] as number;
      if (cell < 0) continue;
      docs[fill[cell] as number] = i;
      fill[cell] = (fill[cell] as number) + 1;
    }
    docs.set(strays, placed);
    this.#docs = docs;
    this.#positionOf = new Int32Array(lat.length).fill(-1);
    for (let j = 0; j < docs.length; j++) this.#positionOf[docs[j] as number] = j;
    const copy = <T extends Float64Array | Int32Array>(column: T): T => {
      const out = new (column.constructor as new (n: number) => T)(docs.length);
      for (let j = 0; j < docs.length; j++) out[j] = column[docs[j] as number] as number;
      return out;
    };
    this.#placed = {
      lat: copy(lat),
      lng: copy(lng),
      cosLat: copy(columns.cosLat),
      unit: new Float64Array(3 * docs.length),
      container: copy(columns.container),
    };
    const unit = this.#placed.unit;
    for (let j = 0; j < docs.length; j++) {
      const from = 3 * (docs[j] as number);
      for (let c = 0; c < 3; c++) unit[3 * j + c] = columns.unit[from + c] as number;
    }
  }

  /** The docs in the cells around `point` that a circle of `km` may reach. */
  candidates(point: { lat: number; lng: number }, km: number): GeoCandidates {
    const ranges: number[] = [];
    const radius = km / EARTH_RADIUS_KM + MARGIN_RADIANS;
    const reach = radius * DEGREES + MARGIN_DEGREES;
    const south = point.lat - reach;
    const north = point.lat + reach;
    const span = radius >= Math.PI / 2 ? 2 : Math.sin(radius) / Math.cos(point.lat / DEGREES);
    if (radius >= Math.PI || south <= -90 || north >= 90 || span >= 1) {
      // A pole is inside, or the circle wraps the whole way round: every longitude.
      this.#addRows(
        ranges,
        rowOf(Math.max(south, -90)),
        rowOf(Math.min(north, 90)),
        0,
        COLUMNS - 1,
      );
    } else {
      const wide = Math.asin(span) * DEGREES + MARGIN_DEGREES;
      const west = point.lng - wide;
      const east = point.lng + wide;
      const top = rowOf(north);
      const bottom = rowOf(south);
      if (wide >= 180) this.#addRows(ranges, bottom, top, 0, COLUMNS - 1);
      else if (west < -180) {
        this.#addRows(ranges, bottom, top, columnOf(west + 360), COLUMNS - 1);
        this.#addRows(ranges, bottom, top, 0, columnOf(east));
      } else if (east > 180) {
        this.#addRows(ranges, bottom, top, columnOf(west), COLUMNS - 1);
        this.#addRows(ranges, bottom, top, 0, columnOf(east - 360));
      } else this.#addRows(ranges, bottom, top, columnOf(west), columnOf(east));
    }
    if (this.#strayStart < this.#docs.length) ranges.push(this.#strayStart, this.#docs.length);
    let size = 0;
    for (let r = 0; r < ranges.length; r += 2) {
      size += (ranges[r + 1] as number) - (ranges[r] as number);
    }
    return { docs: this.#docs, ranges, size, placed: this.#placed };
  }

  /**
   * Where the docs of `set` stand in the grid's order, ascending: a walk of the cells can then
   * go straight to the docs of a keyword or a skill in each run instead of testing every doc of
   * the cells. Made the second time a set is asked for (a keyword searched once is not worth the
   * pass over the grid) and kept as long as the set is.
   */
  positionsOf(set: DocSet): Int32Array | undefined {
    const known = this.#positions.get(set);
    if (known !== undefined && known !== null) return known;
    if (known === undefined) {
      this.#positions.set(set, null);
      return undefined;
    }
    const docs = this.#docs;
    let positions: Int32Array;
    if (set.size * 32 < docs.length) {
      // Few docs: each one's position, sorted.
      const found = new IntBuffer(set.size);
      for (const id of set.ids) {
        const at = this.#positionOf[id] as number;
        if (at >= 0) found.push(at);
      }
      positions = found.toArray().sort();
    } else {
      // Many: one pass over the grid, in order, with the set's bitmap.
      const has = set.tester();
      const found = new IntBuffer(set.size);
      for (let j = 0; j < docs.length; j++) if (has(docs[j] as number)) found.push(j);
      positions = found.toArray();
    }
    this.#positions.set(set, positions);
    return positions;
  }

  #addRows(ranges: number[], bottom: number, top: number, west: number, east: number): void {
    for (let row = bottom; row <= top; row++) {
      const from = this.#cellStarts[row * COLUMNS + west] as number;
      const to = this.#cellStarts[row * COLUMNS + east + 1] as number;
      if (to > from) ranges.push(from, to);
    }
  }
}

function rowOf(lat: number): number {
  return Math.min(ROWS - 1, Math.max(0, Math.floor((lat + 90) / CELL_DEGREES)));
}

function columnOf(lng: number): number {
  return Math.min(COLUMNS - 1, Math.max(0, Math.floor((lng + 180) / CELL_DEGREES)));
}
