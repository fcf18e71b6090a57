#!/usr/bin/env python3
"""Random divergent loop nests for the vmap property test.

  loopgen.py SEED OUT.mlir    writes @f (one lane) and @f_vmap (loom.vmap
                              of @f over a dynamic batch), and prints the
                              vmap_property.py arguments that check them
  loopgen.py check LOOM_RUN DIR SEED...
                              generates each SEED's program in DIR and runs
                              vmap_property.py on it: every strategy, gang
                              widths, refill, timed variants' later calls,
                              1 to 3 shards, batches 0, 1, 13 and 37

Each program is a random nest of 1 to 3 levels of scf.while, whose
predicates read per-lane values, so the lanes diverge: integer and float
bodies, scf.if inside loops, a buffer written and read at per-lane indices,
constant tables read at per-lane indices, libm calls, and lanes that never
enter a loop. Every loop stops: it counts its trips against a per-lane cap
of at most 15. No op is undefined on any value it can see (no division by a value that can be 0, no float to int
conversion of a value out of range or NaN), so every lowering must give
every lane's bits exactly.
"""

import os
import random
import shlex
import subprocess
import sys

# vmap_property.py --variant flags: each lowering, and what splits a batch.
VARIANTS = [
    "gang4:--divergent gang --gang-width 4",
    "gang4-refill:--divergent gang --gang-width 4 --refill",
    "gang-refill:--divergent gang --refill",
    "auto-second-call:--divergent auto --repeat 2",
    "auto4-third-call:--divergent auto --gang-width 4 --repeat 3",
    "masked-s3-global:--divergent masked --shards 3 --loop-sync global",
    "auto-s2:--divergent auto --shards 2 --repeat 2",
    "gang4-refill-s3:--divergent gang --gang-width 4 --refill --shards 3",
    "per-lane-s2:--divergent per-lane --shards 2",
    "auto-O0:--divergent auto -O0",
    "gang4-refill-lv:--divergent gang --gang-width 4 --refill --lane-vectors",
    "auto-lv-s2:--divergent auto --lane-vectors --shards 2 --repeat 2",
]


class Gen:
    def __init__(self, rng, aux):
        self.rng = rng
        # Draws of features added later, so that a seed's program keeps
        # what it held when tests picked it.
        self.aux = aux
        self.lines = []
        self.count = 0
        self.indent = 1
        self.buffers = []

    def fresh(self):
        self.count += 1
        return "%%v%d" % self.count

    def emit(self, text):
        self.lines.append("  " * self.indent + text)

    def const(self, value, type_):
        name = self.fresh()
        if type_ == "f32":
            self.emit("%s = arith.constant %s : f32" % (name, repr(float(value))))
        else:
            self.emit("%s = arith.constant %d : %s" % (name, value, type_))
        return name

    def pick(self, env, type_):
        choices = [n for n, t in env if t == type_]
        return self.rng.choice(choices) if choices else None

    def int_op(self, env):
        r = self.rng
        a = self.pick(env, "i32")
        b = self.pick(env, "i32")
        name = self.fresh()
        kind = r.randrange(9)
        if kind == 0:
            op = r.choice(["addi", "subi", "muli", "andi", "ori", "xori",
                           "maxsi", "minsi"])
            self.emit("%s = arith.%s %s, %s : i32" % (name, op, a, b))
        elif kind == 1:
            c = self.const(r.randrange(1, 4), "i32")
            op = r.choice(["shrsi", "shli", "shrui"])
            self.emit("%s = arith.%s %s, %s : i32" % (name, op, a, c))
        elif kind == 2:
            c = self.const(r.choice([2, 3, 5, 7]), "i32")
            op = r.choice(["divsi", "remsi", "divui", "remui", "ceildivsi",
                           "floordivsi"])
            self.emit("%s = arith.%s %s, %s : i32" % (name, op, a, c))
        elif kind == 3:
            # A divisor that is never zero: 1 + (b & 7).
            m = self.const(7, "i32")
            one = self.const(1, "i32")
            low = self.fresh()
            self.emit("%s = arith.andi %s, %s : i32" % (low, b, m))
            d = self.fresh()
            self.emit("%s = arith.addi %s, %s : i32" % (d, low, one))
            self.emit("%s = arith.remsi %s, %s : i32" % (name, a, d))
        elif kind == 4:
            p = self.cmp(env)
            self.emit("%s = arith.select %s, %s, %s : i32" % (name, p, a, b))
        elif kind == 5:
            x = self.pick(env, "f32")
            if x is None:
                return self.int_op_simple(env, name, a, b)
            # A float to int conversion of a value clamped to [-100, 100]
            # and not NaN.
            lo, hi = self.const(-100.0, "f32"), self.const(100.0, "f32")
            zero = self.const(0.0, "f32")
            c1, c2, nan, safe = (self.fresh() for _ in range(4))
            self.emit("%s = arith.maximumf %s, %s : f32" % (c1, x, lo))
            self.emit("%s = arith.minimumf %s, %s : f32" % (c2, c1, hi))
            self.emit("%s = arith.cmpf uno, %s, %s : f32" % (nan, c2, c2))
            self.emit("%s = arith.select %s, %s, %s : f32" % (safe, nan, zero,
                                                              c2))
            self.emit("%s = arith.fptosi %s : f32 to i32" % (name, safe))
        else:
            return self.int_op_simple(env, name, a, b)
        return name

    def int_op_simple(self, env, name, a, b):
        c = self.const(self.rng.randrange(-3, 8), "i32")
        op = self.rng.choice(["addi", "subi", "xori", "muli"])
        self.emit("%s = arith.%s %s, %s : i32" % (name, op, a, c))
        return name

    def float_op(self, env):
        r = self.rng
        x = self.pick(env, "f32")
        y = self.pick(env, "f32")
        name = self.fresh()
        kind = r.randrange(10)
        if kind <= 2:
            op = r.choice(["addf", "subf", "mulf", "maximumf", "minimumf"])
            self.emit("%s = arith.%s %s, %s : f32" % (name, op, x, y))
        elif kind == 3:
            # x / (|y| + 1)
            one = self.const(1.0, "f32")
            a, d = self.fresh(), self.fresh()
            self.emit("%s = math.absf %s : f32" % (a, y))
            self.emit("%s = arith.addf %s, %s : f32" % (d, a, one))
            self.emit("%s = arith.divf %s, %s : f32" % (name, x, d))
        elif kind == 4:
            op = r.choice(["sin", "absf", "sqrt", "log1p", "floor", "cos",
                           "exp", "tanh"])
            arg = x
            if op in ("sqrt", "log1p") and r.random() < 0.7:
                arg = self.fresh()
                self.emit("%s = math.absf %s : f32" % (arg, x))
            if op == "exp":
                lim = self.const(10.0, "f32")
                arg = self.fresh()
                self.emit("%s = arith.minimumf %s, %s : f32" % (arg, x, lim))
            self.emit("%s = math.%s %s : f32" % (name, op, arg))
        elif kind == 5:
            i = self.pick(env, "i32")
            if self.aux.random() < 0.5:
                # A constant table read at a per-lane index, i & 7.
                values = ", ".join(
                    repr(self.aux.choice([-2.0, -0.5, 0.25, 1.0, 3.5]))
                    for _ in range(8))
                t, m, low, ix = (self.fresh() for _ in range(4))
                self.emit("%s = arith.constant dense<[%s]> : tensor<8xf32>" %
                          (t, values))
                self.emit("%s = arith.constant 7 : i32" % m)
                self.emit("%s = arith.andi %s, %s : i32" % (low, i, m))
                self.emit("%s = arith.index_cast %s : i32 to index" % (ix, low))
                self.emit("%s = tensor.extract %s[%s] : tensor<8xf32>" % (
                    name, t, ix))
            else:
                self.emit("%s = arith.sitofp %s : i32 to f32" % (name, i))
        elif kind == 6:
            p = self.cmp(env)
            self.emit("%s = arith.select %s, %s, %s : f32" % (name, p, x, y))
        else:
            c = self.const(r.choice([0.5, 0.25, 1.5, -0.75, 0.1, 2.0]), "f32")
            op = r.choice(["addf", "mulf", "subf"])
            self.emit("%s = arith.%s %s, %s : f32" % (name, op, x, c))
        return name

    def cmp(self, env):
        r = self.rng
        name = self.fresh()
        if r.random() < 0.5 or self.pick(env, "f32") is None:
            a, b = self.pick(env, "i32"), self.pick(env, "i32")
            pred = r.choice(["slt", "sle", "sgt", "ne", "eq", "ult"])
            self.emit("%s = arith.cmpi %s, %s, %s : i32" % (name, pred, a, b))
        else:
            a, b = self.pick(env, "f32"), self.pick(env, "f32")
            pred = r.choice(["olt", "ole", "ogt", "une", "ult", "oge"])
            self.emit("%s = arith.cmpf %s, %s, %s : f32" % (name, pred, a, b))
        return name

    def ops(self, env, count, depth):
        for _ in range(count):
            roll = self.rng.random()
            if roll < 0.12 and depth < 3:
                self.loop(env, depth + 1)
            elif roll < 0.16 and depth < 3:
                self.for_loop(env, depth + 1)
            elif roll < 0.22:
                self.branch(env, depth)
            elif roll < 0.6 or self.pick(env, "f32") is None:
                env.append((self.int_op(env), "i32"))
            else:
                env.append((self.float_op(env), "f32"))

    def branch(self, env, depth):
        p = self.cmp(env)
        types = [self.rng.choice(["i32", "f32"])
                 for _ in range(self.rng.randrange(1, 3))]
        types = [t for t in types if self.pick(env, t) is not None] or ["i32"]
        names = [self.fresh() for _ in types]
        self.emit("%s = scf.if %s -> (%s) {" % (
            ", ".join(names) if len(names) == 1 else
            "%s:%d" % (names[0], len(names)), p, ", ".join(types)))
        results = self._arm(env, types, depth)
        self.emit("} else {")
        other = self._arm(env, types, depth)
        self.emit("}")
        del results, other
        if len(names) == 1:
            env.append((names[0], types[0]))
        else:
            for k, t in enumerate(types):
                env.append(("%s#%d" % (names[0], k), t))

    def _arm(self, env, types, depth):
        self.indent += 1
        local = list(env)
        self.ops(local, self.rng.randrange(0, 4), max(depth, 2))
        vals = [self.pick(local, t) for t in types]
        self.emit("scf.yield %s : %s" % (", ".join(vals), ", ".join(types)))
        self.indent -= 1
        return vals

    def for_loop(self, env, depth):
        """An scf.for whose trip count is per-lane: 0 to 7."""
        i = self.pick(env, "i32")
        seven = self.const(7, "i32")
        low, ub = self.fresh(), self.fresh()
        self.emit("%s = arith.andi %s, %s : i32" % (low, i, seven))
        self.emit("%s = arith.index_cast %s : i32 to index" % (ub, low))
        c0, c1 = self.fresh(), self.fresh()
        self.emit("%s = arith.constant 0 : index" % c0)
        self.emit("%s = arith.constant 1 : index" % c1)
        t = self.rng.choice(["i32", "f32"])
        init = self.pick(env, t)
        if init is None:
            t, init = "i32", self.pick(env, "i32")
        iv, acc, res = self.fresh(), self.fresh(), self.fresh()
        self.emit("%s = scf.for %s = %s to %s step %s iter_args(%s = %s) -> (%s) {"
                  % (res, iv, c0, ub, c1, acc, init, t))
        self.indent += 1
        benv = env + [(acc, t)]
        ivi = self.fresh()
        self.emit("%s = arith.index_cast %s : index to i32" % (ivi, iv))
        benv.append((ivi, "i32"))
        self.ops(benv, self.rng.randrange(1, 4), depth)
        self.emit("scf.yield %s : %s" % (self.pick(benv[len(env):], t) or acc,
                                        t))
        self.indent -= 1
        self.emit("}")
        env.append((res, t))

    def loop(self, env, depth):
        r = self.rng
        # The trip cap: 0 to 15 from a per-lane integer, minus 3 (lanes
        # with a cap <= 0 never enter).
        i = self.pick(env, "i32")
        m, three = self.const(15, "i32"), self.const(3, "i32")
        low, cap = self.fresh(), self.fresh()
        self.emit("%s = arith.andi %s, %s : i32" % (low, i, m))
        self.emit("%s = arith.subi %s, %s : i32" % (cap, low, three))
        zero = self.const(0, "i32")
        carried = [(zero, "i32")]
        for _ in range(r.randrange(1, 4)):
            t = r.choice(["i32", "f32"])
            v = self.pick(env, t)
            if v is not None:
                carried.append((v, t))
        use_buf = r.random() < 0.25
        if use_buf:
            fz = self.const(0.0, "f32")
            buf = self.fresh()
            self.emit("%s = tensor.splat %s : tensor<4xf32>" % (buf, fz))
            carried.append((buf, "tensor<4xf32>"))
        types = [t for _, t in carried]
        ins = [self.fresh() for _ in carried]
        res = self.fresh()
        tys = ", ".join(types)
        self.emit("%s:%d = scf.while (%s) : (%s) -> (%s) {" % (
            res, len(carried),
            ", ".join("%s = %s" % (a, v) for a, (v, _) in zip(ins, carried)),
            tys, tys))
        self.indent += 1
        benv = env + [(a, t) for a, t in zip(ins, types)
                      if not t.startswith("tensor")]
        go = self.fresh()
        self.emit("%s = arith.cmpi slt, %s, %s : i32" % (go, ins[0], cap))
        if r.random() < 0.6:
            p = self.cmp(benv)
            both = self.fresh()
            self.emit("%s = arith.andi %s, %s : i1" % (both, go, p))
            go = both
        forwarded = list(ins)
        for k, t in enumerate(types):
            if k and t == "f32" and r.random() < 0.3:
                # The after block sees a value the before block computed.
                half, fw = self.const(0.5, "f32"), self.fresh()
                self.emit("%s = arith.mulf %s, %s : f32" % (fw, ins[k], half))
                forwarded[k] = fw
        self.emit("scf.condition(%s) %s : %s" % (go, ", ".join(forwarded),
                                                 tys))
        self.indent -= 1
        self.emit("} do {")
        outs = [self.fresh() for _ in carried]
        self.emit("^bb0(%s):" % ", ".join(
            "%s: %s" % (a, t) for a, t in zip(outs, types)))
        self.indent += 1
        benv = env + [(a, t) for a, t in zip(outs, types)
                      if not t.startswith("tensor")]
        self.ops(benv, r.randrange(2, 7), depth)
        one = self.const(1, "i32")
        k1 = self.fresh()
        self.emit("%s = arith.addi %s, %s : i32" % (k1, outs[0], one))
        yields = [k1]
        for (a, t) in list(zip(outs, types))[1:]:
            if t.startswith("tensor"):
                # Written at a per-lane index in [0, 4), read back at another.
                iv = self.pick(benv, "i32")
                three4 = self.const(3, "i32")
                idx32, idx = self.fresh(), self.fresh()
                self.emit("%s = arith.andi %s, %s : i32" % (idx32, iv, three4))
                self.emit("%s = arith.index_cast %s : i32 to index" % (idx, idx32))
                val = self.pick(benv, "f32") or self.const(1.5, "f32")
                ins2 = self.fresh()
                self.emit("%s = tensor.insert %s into %s[%s] : tensor<4xf32>" % (
                    ins2, val, a, idx))
                rd = self.fresh()
                self.emit("%s = tensor.extract %s[%s] : tensor<4xf32>" % (
                    rd, ins2, idx))
                yields.append(ins2)
            else:
                yields.append(self.pick(benv, t))
        self.emit("scf.yield %s : %s" % (", ".join(yields), tys))
        self.indent -= 1
        self.emit("}")
        for k, t in enumerate(types):
            if t.startswith("tensor") and depth == 1:
                self.buffers.append("%s#%d" % (res, k))
            if t.startswith("tensor"):
                zero_i = self.fresh()
                self.emit("%s = arith.constant %d : index" % (
                    zero_i, r.randrange(4)))
                e = self.fresh()
                self.emit("%s = tensor.extract %s#%d[%s] : tensor<4xf32>" % (
                    e, res, k, zero_i))
                env.append((e, "f32"))
            else:
                env.append(("%s#%d" % (res, k), t))


def generate(seed):
    rng = random.Random(seed)
    g = Gen(rng, random.Random(-1 - seed))
    args = []
    for k in range(rng.randrange(1, 4)):
        args.append(("a%d" % k, rng.choice(["i32", "f32"])))
    if all(t == "f32" for _, t in args):
        args[0] = (args[0][0], "i32")
    shared = rng.random() < 0.3
    env = [("%" + n, t) for n, t in args]
    if shared:
        env.append(("%s0", "f32"))
    g.loop(env, 1)
    g.ops(env, rng.randrange(0, 3), 1)
    results = [env[-1]]
    other = [e for e in env[len(args):] if e[1] != env[-1][1]]
    if other:
        results.append(other[-1])
    if g.buffers:
        results.append((g.buffers[-1], "tensor<4xf32>"))
    body = "\n".join(g.lines)
    params = ", ".join('%%%s: %s {loom.name = "%s"}' % (n, t, n)
                       for n, t in args)
    if shared:
        params += ', %s0: f32 {loom.name = "s0"}'
    rets = ", ".join('%s {loom.name = "r%d"}' % (t, k)
                     for k, (_, t) in enumerate(results))
    text = "func.func @f(%s) -> (%s) {\n%s\n  return %s : %s\n}\n" % (
        params, rets, body, ", ".join(v for v, _ in results),
        ", ".join(t for _, t in results))
    vparams = ", ".join('%%%ss: tensor<?x%s> {loom.name = "%ss"}' % (n, t, n)
                        for n, t in args)
    vargs = ", ".join("%%%ss" % n for n, _ in args)
    vtypes = ", ".join("tensor<?x%s>" % t for _, t in args)
    axes = ", ".join("0" for _ in args)
    if shared:
        vparams += ', %s0: f32 {loom.name = "s0"}'
        vargs += ", %s0"
        vtypes += ", f32"
        axes += ", none"
    def batched(t):
        return "tensor<?x4xf32>" if t.startswith("tensor") else \
            "tensor<?x%s>" % t
    vrets = ", ".join(batched(t) for _, t in results)
    vnamed = ", ".join('%s {loom.name = "r%ds"}' % (batched(t), k)
                       for k, (_, t) in enumerate(results))
    names = ["%%r#%d" % k for k in range(len(results))] \
        if len(results) > 1 else ["%r"]
    rdef = "%%r:%d" % len(results) if len(results) > 1 else "%r"
    text += ("func.func @f_vmap(%s) -> (%s) {\n"
             "  %s = loom.vmap @f(%s) in_axes [%s] out_axes [%s]\n"
             "      : (%s) -> (%s)\n"
             "  return %s : %s\n}\n") % (
        vparams, vnamed, rdef, vargs, axes,
        ", ".join("0" for _ in results), vtypes, vrets,
        ", ".join(names), vrets)
    flags = []
    for n, t in args:
        if t == "i32":
            flags.append("--arg %ss/%s:i32:-40:60:-" % (n, n))
        else:
            flags.append("--arg %ss/%s:f32:-8:12:-" % (n, n))
    if shared:
        flags.append("--arg s0:shared-f32:%s" % rng.choice(["0.5", "-1.25",
                                                            "3.0"]))
    for k in range(len(results)):
        flags.append("--result r%d:r%ds" % (k, k))
    return text, " ".join(flags)


def check(loom_run, out, seeds):
    os.makedirs(out, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    failed = False
    for seed in seeds:
        path = os.path.join(out, "loopgen-%d.mlir" % seed)
        text, flags = generate(seed)
        with open(path, "w") as f:
            f.write("// loopgen.py %d\n" % seed + text)
        cmd = [sys.executable, os.path.join(here, "vmap_property.py"),
               loom_run, path, "--batch", "0,1,13,37", "--vmapped", "f_vmap",
               "--scalar", "f"] + shlex.split(flags)
        for variant in VARIANTS:
            cmd += ["--variant", variant]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        ok = proc.returncode == 0 and proc.stdout.rstrip().endswith("PASS")
        print("seed %d: %s" % (seed, "PASS" if ok else "FAIL (%s)" % path))
        if not ok:
            failed = True
            sys.stdout.write(proc.stdout[-3000:] + proc.stderr[-3000:])
    return 1 if failed else 0


def main(argv):
    if len(argv) >= 5 and argv[1] == "check":
        sys.exit(check(argv[2], argv[3], [int(s) for s in argv[4:]]))
    if len(argv) != 3:
        sys.exit(__doc__)
    text, flags = generate(int(argv[1]))
    with open(argv[2], "w") as f:
        f.write("// loopgen.py %s\n" % argv[1] + text)
    print(flags)


if __name__ == "__main__":
    main(sys.argv)
