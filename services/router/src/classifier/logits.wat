(module
  ;; The kernel of logits (model.ts): a feature vector times the int8 weight rows, 32 columns,
  ;; eight at a time in four f64x2 sums over blocks of 32 rows. Each column adds the rows in
  ;; order, each term an f64 multiply then an f64 add, so the sums equal the plain JavaScript loop
  ;; bit for bit. Compiled into logits-wasm.ts by scripts/build-logits-wasm.mjs.
  (memory (export "memory") 1)
  ;; logits(rows, vals, m, out): out[k] (f64, 32 columns) = sum over i < m, in order, of
  ;; vals[i] * weights[rows[i] + k]; rows[i] is the byte address of row i's 32 int8 weights.
  (func (export "logits") (param $rows i32) (param $vals i32) (param $m i32) (param $out i32)
    (local $from i32) (local $to i32) (local $k i32) (local $i i32) (local $o i32)
    (local $v v128) (local $w v128) (local $x v128)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    ;; out = 0
    (local.set $k (i32.const 0))
    (loop $zero
      (v128.store (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 3))) (v128.const i64x2 0 0))
      (local.set $k (i32.add (local.get $k) (i32.const 2)))
      (br_if $zero (i32.lt_u (local.get $k) (i32.const 32))))
    (local.set $from (i32.const 0))
    (block $done
      (loop $blocks
        (br_if $done (i32.ge_u (local.get $from) (local.get $m)))
        (local.set $to (select (local.get $m) (i32.add (local.get $from) (i32.const 32))
                               (i32.lt_u (local.get $m) (i32.add (local.get $from) (i32.const 32)))))
        (local.set $k (i32.const 0))
        (loop $columns
          (local.set $o (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 3))))
          (local.set $a0 (v128.load offset=0 (local.get $o)))
          (local.set $a1 (v128.load offset=16 (local.get $o)))
          (local.set $a2 (v128.load offset=32 (local.get $o)))
          (local.set $a3 (v128.load offset=48 (local.get $o)))
          (local.set $i (local.get $from))
          (loop $rows_loop
            (local.set $v (f64x2.splat (f64.load (i32.add (local.get $vals) (i32.shl (local.get $i) (i32.const 3))))))
            (local.set $w (v128.load8x8_s (i32.add (i32.load (i32.add (local.get $rows) (i32.shl (local.get $i) (i32.const 2)))) (local.get $k))))
            (local.set $x (i32x4.extend_low_i16x8_s (local.get $w)))
            (local.set $a0 (f64x2.add (local.get $a0) (f64x2.mul (local.get $v) (f64x2.convert_low_i32x4_s (local.get $x)))))
            (local.set $a1 (f64x2.add (local.get $a1) (f64x2.mul (local.get $v) (f64x2.convert_low_i32x4_s
              (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $x) (local.get $x))))))
            (local.set $x (i32x4.extend_high_i16x8_s (local.get $w)))
            (local.set $a2 (f64x2.add (local.get $a2) (f64x2.mul (local.get $v) (f64x2.convert_low_i32x4_s (local.get $x)))))
            (local.set $a3 (f64x2.add (local.get $a3) (f64x2.mul (local.get $v) (f64x2.convert_low_i32x4_s
              (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $x) (local.get $x))))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br_if $rows_loop (i32.lt_u (local.get $i) (local.get $to))))
          (v128.store offset=0 (local.get $o) (local.get $a0))
          (v128.store offset=16 (local.get $o) (local.get $a1))
          (v128.store offset=32 (local.get $o) (local.get $a2))
          (v128.store offset=48 (local.get $o) (local.get $a3))
          (local.set $k (i32.add (local.get $k) (i32.const 8)))
          (br_if $columns (i32.lt_u (local.get $k) (i32.const 32))))
        (local.set $from (local.get $to))
        (br $blocks)))))
