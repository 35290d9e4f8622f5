/** Rows summed per block: a block's rows stay in the first-level cache while every column is summed over them. */
const ROW_BLOCK = 32;

/**
 * out[k] += Σ weight[i] · table[base[i] + k] for every column k < width, over the rows i < count
 * in order. The rows are taken in blocks of ROW_BLOCK and, within a block, eight columns at a time
 * are summed in registers over the block's rows, now in cache. Each column adds the rows in order,
 * each term a multiply then an add, so the sums are a plain loop's bit for bit. (Whole columns over
 * every row let a long vector's rows fall out of the first-level cache between columns; one row at
 * a time stores every partial sum.)
 */
export function addRows(base: Int32Array, weight: Float64Array, count: number, table: Int8Array, out: Float64Array, width: number): void {
  for (let from = 0; from < count; from += ROW_BLOCK) {
    const to = Math.min(count, from + ROW_BLOCK);
    let k = 0;
    for (; k + 8 <= width; k += 8) {
      let s0 = out[k];
      let s1 = out[k + 1];
      let s2 = out[k + 2];
      let s3 = out[k + 3];
      let s4 = out[k + 4];
      let s5 = out[k + 5];
      let s6 = out[k + 6];
      let s7 = out[k + 7];
      for (let i = from; i < to; i++) {
        const b = base[i] + k;
        const w = weight[i];
        s0 += w * table[b];
        s1 += w * table[b + 1];
        s2 += w * table[b + 2];
        s3 += w * table[b + 3];
        s4 += w * table[b + 4];
        s5 += w * table[b + 5];
        s6 += w * table[b + 6];
        s7 += w * table[b + 7];
      }
      out[k] = s0;
      out[k + 1] = s1;
      out[k + 2] = s2;
      out[k + 3] = s3;
      out[k + 4] = s4;
      out[k + 5] = s5;
      out[k + 6] = s6;
      out[k + 7] = s7;
    }
    for (; k < width; k++) {
      let sum = out[k];
      for (let i = from; i < to; i++) sum += weight[i] * table[base[i] + k];
      out[k] = sum;
    }
  }
}
