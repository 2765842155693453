"""docs/performance.md and docs/performance/*.svg from bench.py's results."""
import os
import statistics

import svg


def row(label, s, fmt="{:.2f}"):
    return f"| {label} | {fmt.format(s['median'])} | {fmt.format(s['min'])} | {fmt.format(s['max'])} | {s['runs']} |"


HEAD = "| | median | min | max | runs |\n| --- | --- | --- | --- | --- |"


def hop_section(h, plots):
    base = h["instructions"]["pre-wrapper library"]
    lines = ["## Pass-through hop (miopenGetVersion)", "",
             f"ns per call, {h['calls']} calls per process, configurations interleaved round by round "
             "(the minimum is the figure to compare: everything above it is the machine's noise):", "", HEAD]
    lines += [row(k, v, "{:.3f}") for k, v in h["ns"].items()]
    lines += ["", "Instructions per call (callgrind, (I(200k) - I(100k)) / 100k: exact, noise-free):", "",
              "| library | instructions/call | over the pre-wrapper library |", "| --- | --- | --- |"]
    lines += [f"| {k} | {v:.2f} | {round(v - base, 2) + 0.0:+.2f} |" for k, v in h["instructions"].items()]
    setter = h.get("setter_instructions")
    if setter:
        sb = setter["pre-wrapper library"]
        routed = h["instructions"]["wrapper, enabled (routed path)"] - base
        lines += ["", "The same for a descriptor setter (miopenSet4dTensorDescriptor on one descriptor): with "
                  "forwarding enabled its routed body also reports the descriptor it may change, so that a "
                  "forwarded call can skip reading unchanged descriptors (docs/forwarding.md, \"Descriptor "
                  "generations\"):", "",
                  "| library | instructions/call | over the pre-wrapper library |", "| --- | --- | --- |"]
        lines += [f"| {k} | {v:.2f} | {round(v - sb, 2) + 0.0:+.2f} |" for k, v in setter.items()]
        extra = setter["wrapper, enabled (routed path)"] - sb - routed
        lines += ["", f"The routed path of miopenGetVersion costs {routed:+.0f} instructions over the baseline; a "
                  f"setter's costs {extra:+.0f} more (the descriptor report). Disabled, both are the 3-instruction "
                  "stub."]
    svg.bars(os.path.join(plots, "hop.svg"), "Pass-through hop: min ns per miopenGetVersion call",
             [(k, v["min"]) for k, v in h["ns"].items()], "ns per call (min of runs)")
    svg.bars(os.path.join(plots, "hop-instructions.svg"), "Pass-through hop: instructions per call (callgrind)",
             list(h["instructions"].items()), "instructions per call")
    lines += ["", "![hop](performance/hop.svg)", "", "![hop instructions](performance/hop-instructions.svg)", ""]
    return lines


def load_section(l):
    lines = ["## Load cost", "",
             "A process that loads libMIOpen.so.1 and makes one call: peak RSS (VmHWM) and page faults "
             "(getrusage). *Warm*: the library files in the page cache. *Cold*: their pages dropped from the "
             "page cache before every run (posix_fadvise DONTNEED on the library files only), so mapping "
             "them takes major faults.", ""]
    for cache, variants in l.items():
        lines += [f"| {cache} cache | peak RSS KB (median) | major faults (median) | minor faults (median) | runs |",
                  "| --- | --- | --- | --- | --- |"]
        for label, s in variants.items():
            lines.append(f"| {label} | {s['vm_hwm_kb']['median']:.0f} | {s['major_faults']['median']:.0f} | "
                         f"{s['minor_faults']['median']:.0f} | {s['vm_hwm_kb']['runs']} |")
        b, w = variants["pre-wrapper library"], variants["wrapper (disabled)"]
        lines += ["", f"{cache}: wrapper - baseline = {w['vm_hwm_kb']['median'] - b['vm_hwm_kb']['median']:+.0f} KB "
                  f"RSS, {w['major_faults']['median'] - b['major_faults']['median']:+.0f} major faults, "
                  f"{w['minor_faults']['median'] - b['minor_faults']['median']:+.0f} minor faults "
                  "(RFC: <= 1 MB RSS, about +6 major faults).", ""]
    return lines


def steady_section(s, plots):
    lines = ["## Forwarded steady state (engine time excluded)", "",
             "miopenConvolutionForward through libMIOpen.so with forwarding enabled, plan cache warm, on the test "
             "bed's engine that returns at once (MINI_TEST_DUMMY_ENGINE), vs the hipDNN backend alone doing what "
             "the wrapper asks of it per call (variant pack + execute on a prebuilt plan). One MIOpen handle per "
             "thread. ns per call:", "",
             "| threads | through the wrapper (min / median) | backend alone (min / median) | wrapper adds (min) |"
             " target |", "| --- | --- | --- | --- | --- |"]
    bars = []
    instr = s.get("instructions")
    for t, m in ((t, m) for t, m in s.items() if t != "instructions"):
        add = m["wrapper"]["min"] - m["backend"]["min"]
        lines.append(f"| {t} | {m['wrapper']['min']:.0f} / {m['wrapper']['median']:.0f} | "
                     f"{m['backend']['min']:.0f} / {m['backend']['median']:.0f} | {add:.0f} | "
                     f"{'<= 300 ns' if str(t) == '1' else '-'} |")
        bars.append((f"{t} thread(s): wrapper adds", add))
    svg.bars(os.path.join(plots, "steady.svg"), "Forwarded steady state: what the wrapper adds per call", bars,
             "ns per call (min of runs)", target=300, target_label="target 300 ns")
    if instr:
        added = instr["wrapper"] - instr["backend"]
        logging = instr["test bed log-level reads"]
        lines += ["", "Instructions per call (callgrind, one thread, exact): through the wrapper "
                  f"{instr['wrapper']:.0f}, backend alone {instr['backend']:.0f}: the wrapper adds {added:.0f} "
                  f"({met(added, CONV_TARGET)}). A repeat call with unchanged descriptors reads none of them: the "
                  "descriptors' generations answer it (docs/forwarding.md, \"Descriptor generations\")"
                  + (f"; {logging:.0f} of the added instructions are the test bed's logging checks "
                     "(miopen::IsLogging)." if logging else
                     "; none of the added instructions are MIOpen Private's getters or logging checks.")]
        if "find2" in instr:
            lines += ["", f"The same convolution through Find 2.0 (`miopenRunSolution` of a hipDNN solution, "
                      f"MIGraphX's steady state): {instr['find2']:.0f} instructions per call, the wrapper adds "
                      f"{instr['find2'] - instr['backend']:.0f} ({met(instr['find2'] - instr['backend'], FAMILY_TARGET)})."]
        if "find2_tuned" in instr:
            tuned = instr["find2_tuned"] - instr["backend"]
            lines += ["", "A solution searched with tuning (`miopenSetFindOptionTuning`: its plan is built with "
                      f"hipDNN's `global.benchmarking=1` knob), run the same way: {instr['find2_tuned']:.0f} "
                      f"instructions per call, the wrapper adds {tuned:.0f} ({met(tuned, FAMILY_TARGET)})."]
    lines += ["", f"Runs per figure: {next(m for t, m in s.items() if t != 'instructions')['wrapper']['runs']}.", "",
              "![steady state](performance/steady.svg)", ""]
    return lines


def scale_table(run, name, plots):
    """One scale run: ns per call per thread (min [spread]) for every
    configuration, what each wrapper adds over the backend alone, the issue's
    two ratios, and a plot."""
    m, threads = run["machine"], run["threads"]
    ts = sorted(threads, key=int)
    configs = list(threads[ts[0]])
    wrappers = [c for c in configs if c != "backend alone"]
    cell = lambda s: f"{s['min']:,.0f} [{s['min']:,.0f} - {s['max']:,.0f}, {(s['max'] - s['min']) / s['min']:.0%}]"
    lines = [f"{name}: {m['cpu']}, {m['cores']} cores, load {m['load_at_start']:.2f}, {m['date']}; "
             f"{run['calls']:,} calls per thread, {run['rounds']} rounds. Each cell: min [min - max, spread].", "",
             "| threads | " + " | ".join(configs) + " | " + " | ".join(f"{w} adds (min)" for w in wrappers) + " |",
             "| --- " * (1 + len(configs) + len(wrappers)) + "|"]
    adds = {w: [threads[t][w]["min"] - threads[t]["backend alone"]["min"] for t in ts] for w in wrappers}
    for i, t in enumerate(ts):
        lines.append(f"| {t} | " + " | ".join(cell(threads[t][c]) for c in configs) + " | "
                     + " | ".join(f"{adds[w][i]:+,.0f}" for w in wrappers) + " |")
    b1, bn = threads[ts[0]]["backend alone"]["min"], threads[ts[-1]]["backend alone"]["min"]
    met = lambda ok: "met" if ok else "not met"
    lines += ["", f"Backend alone, {ts[-1]} threads / {ts[0]}: {bn / b1:.2f}x (done when <= 1.5x: "
              f"{met(bn <= 1.5 * b1)})."]
    for w in wrappers:
        first, last = adds[w][0], adds[w][-1]
        lines.append(f"{w}: adds {first:+,.0f} ns at {ts[0]} thread(s), {last:+,.0f} at {ts[-1]} (done when at most "
                     f"twice the first, {2 * first:+,.0f}: {met(last <= 2 * first)}; a figure below 0 is the "
                     "machine's noise, within the spread).")
    slug = name.lower().replace(" ", "-")
    svg.lines(os.path.join(plots, f"scale-{slug}.svg"), f"ns per call per thread ({name})", [int(t) for t in ts],
              [(c, [threads[t][c]["min"] for t in ts], [(threads[t][c]["min"], threads[t][c]["max"]) for t in ts])
               for c in configs], "threads (one handle each)", "ns per call (min; bar: min - max)")
    return lines + ["", f"![scale, {name}](performance/scale-{slug}.svg)", ""]


def scale_section(s, plots):
    lines = ["## Scaling: the forwarded steady state on many threads", "",
             "`bench/scale.py`: the steady-state convolution of the section above (dummy engine) on N threads at "
             "once, one MIOpen handle (or, for the backend alone, one hipDNN handle) per thread, every thread's "
             "timed loop started together; ns per call per thread (the mean over threads of each thread's "
             "figure). Every (configuration, threads) pair runs once per round, rounds interleaved; the minimum "
             "is the figure to compare, the spread (max - min) / min says how noisy the machine was.", ""]
    if "many_core" in s:
        lines += scale_table(s["many_core"], "Many-core machine", plots)
    lines += scale_table(s["here"], "This machine", plots)
    return lines


def cold_section(c, plots):
    d = c["disabled"]["median"]
    lines = ["## Cold start: the first convolution of a fresh process", "",
             "A 1x16x32x32 * 16x16x3x3 fp32 miopenConvolutionForward timed inside fresh processes (modes "
             "interleaved); enabled includes loading the hipDNN backend and building the plan. With hipDNN's "
             "MIOpen provider engine the convolution runs the same MIOpen kernel as disabled (the comparison "
             "RFC exit criterion 4 asks for); the reference engine is other CPU code. Microseconds:", "",
             "| mode | median | min | max | runs | spread (max-min)/median | median / disabled |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for m, s in c.items():
        lines.append(f"| {m} | {s['median']:.1f} | {s['min']:.1f} | {s['max']:.1f} | {s['runs']} | "
                     f"{(s['max'] - s['min']) / s['median']:.2f} | {s['median'] / d:.3f} |")
    svg.dots(os.path.join(plots, "coldstart.svg"), "Cold start: first convolution of a fresh process (every run)",
             [(m, s["values"]) for m, s in c.items()], "microseconds (bar: median)")
    lines += ["", "RFC gate: enabled (provider engine) / disabled <= 1.10; our target <= 1.05.", "",
              "![cold start](performance/coldstart.svg)", ""]
    return lines


# The ceilings on the wrapper's instructions per steady-state call
# (issue 33): the convolution's, and every other forwarded family's.
CONV_TARGET = 700
FAMILY_TARGET = 1000


def met(added, target):
    return f"target <= {target}: {'met' if added <= target else 'not met'}"


def fused_section(f):
    i = f["instructions"]
    lines = ["## Fusion plans: a forwarded conv -> bias -> ReLU", "",
             "Instructions per call (callgrind, 2,000 calls, reference engine, a 1x1x4x4 * 1x1x1x1 problem): "
             "`miopenExecuteFusionPlan_v2` on a compiled plan and `miopenConvolutionBiasActivationForward` on the "
             "same problem, both running the same hipDNN plan"
             + (", and the backend alone running that graph's plan (variant pack, execute per call): the "
                "wrapper's share is the fusion plan's count minus the backend's." if "backend" in i else "."), "",
             "| API | instructions per call |", "| --- | --- |",
             f"| fusion plan (`miopenExecuteFusionPlan_v2`) | {i['plan']:,.0f} |",
             f"| one call (`miopenConvolutionBiasActivationForward`) | {i['onecall']:,.0f} |"]
    if "backend" in i:
        plan, onecall = i["plan"] - i["backend"], i["onecall"] - i["backend"]
        lines += [f"| hipDNN backend alone | {i['backend']:,.0f} |",
                  f"| wrapper's share, fusion plan (plan - backend) | {plan:+,.0f} ({met(plan, FAMILY_TARGET)}) |",
                  f"| wrapper's share, one call (one call - backend) | {onecall:+,.0f} |"]
    else:
        lines.append(f"| difference | {i['plan'] - i['onecall']:+,.0f} |")
    return lines + [""] + fused_v1_rows(i)


def fused_v1_rows(i):
    """`miopenExecuteFusionPlan` (no workspace argument: the handle's own), when measured."""
    if "planv1" not in i:
        return []
    return ["`miopenExecuteFusionPlan` passes no workspace: the same plan runs with the workspace the handle owns "
            "(obtained once, then reused).", "", "| API | instructions per call |", "| --- | --- |",
            f"| fusion plan (`miopenExecuteFusionPlan`) | {i['planv1']:,.0f} |",
            f"| difference to one call | {i['planv1'] - i['onecall']:+,.0f} |",
            f"| difference to `miopenExecuteFusionPlan_v2` | {i['planv1'] - i['plan']:+,.0f} |"] + (
                [f"| wrapper's share (`miopenExecuteFusionPlan` - backend) | {i['planv1'] - i['backend']:+,.0f} "
                 f"({met(i['planv1'] - i['backend'], FAMILY_TARGET)}) |"] if "backend" in i else []) + [""]


def batchnorm_section(b):
    head = ["## Batchnorm: disabled vs enabled vs the backend alone", ""]
    if "skipped" in b:
        return head + [f"Not measured: {b['skipped']}.", ""]
    lines = head + [
        "Instructions per call (callgrind, 5,000 calls, a 1x1x4x4 fp32 spatial problem: "
        "`miopenBatchNormalizationForwardInference_V2`, `miopenBatchNormalizationForwardTraining_V2` saving the "
        "batch statistics, `miopenBatchNormalizationBackward_V2` with them, and the inference as a batchnorm "
        "inference -> RELU fusion plan and the backward as a batchnorm backward -> RELU backward fusion plan, each "
        "executed by `miopenExecuteFusionPlan_v2`) through the library of the second "
        "build tree (forwarding set with `batchnorm`): disabled runs MIOpen Private's CPU kernel; enabled forwards "
        "it to hipDNN (reference engine); the backend alone runs the same batchnorm graph's plan with the same "
        "engine (variant pack, execute per call), with the wrapper's uids and in the enabled run's environment, "
        "which is only PATH and the run's own variables with glibc's fast bins off, as `bench/check_steady.py` measures "
        "(the test bed's backend formats each uid into its checks' messages and reads a variable on every "
        "execute, so either difference would change its count). The wrapper's share is enabled minus backend: the routing "
        "decision, the descriptor memo's lookup (a repeat with unchanged descriptors reads none of them), the "
        "argument checks, the plan-cache lookup and the variant pack.", "",
        "| pass | disabled (MIOpen Private) | enabled (forwarded) | hipDNN backend alone | wrapper's share |",
        "| --- | --- | --- | --- | --- |"]
    passes = b["instructions"]
    if "enabled" in passes:  # a results.json from before training and backward were measured
        passes = {"inference": passes}
    for name, i in passes.items():
        added = i["enabled"] - i["backend"]
        lines.append(f"| {name} | {i['disabled']:,.0f} | {i['enabled']:,.0f} | {i['backend']:,.0f} | "
                     f"{added:+,.0f} ({met(added, FAMILY_TARGET)}) |")
    return lines + [""]


def e2e_section(e, params, plots, steady):
    rounds = params["layer_rounds"]
    lines = ["## End to end: ResNet-50 conv layers through MIOpenDriver", "",
             f"The distinct forward conv layers of MIOpen's ResNet-50 model list (bench/resnet50_layers.txt) at "
             f"batch {params['layer_batch']}, `-i {params['layer_iters']} -t 1 -V 0` (the driver's average of the "
             f"iterations after the first), the three configurations interleaved round by round, {rounds} rounds. "
             "The engines are the same CPU kernels (hipDNN's MIOpen provider engine calls MIOpen Private), so a "
             "difference is the wrapper's cost plus the machine's noise. Each cell: median ms [min - max]; the "
             "ratio column is the median of the per-round enabled / disabled ratios [min - max].", ""]
    cost = None
    one = (steady or {}).get(1) or (steady or {}).get("1")  # JSON keys are strings
    if one:
        cost = one["wrapper"]["min"] - one["backend"]["min"]
        instr = steady.get("instructions", {})
        lines += [f"The wrapper's own cost of a forwarded call, measured in the steady-state section: "
                  f"{cost:.0f} ns ({instr.get('wrapper', 0) - instr.get('backend', 0):.0f} instructions); the "
                  "driver makes one miopenConvolutionForward per iteration, so the last column is that cost as a "
                  "fraction of the layer's time. Disabled, the wrapper costs 3 instructions per call.", ""]
    lines += ["| layer (C x H x W, K, filter/stride) | baseline ms | disabled ms | enabled ms | enabled / disabled |"
              " wrapper cost / layer time |", "| --- | --- | --- | --- | --- | --- |"]
    cell = lambda s: f"{s['median']:.1f} [{s['min']:.1f} - {s['max']:.1f}]"
    ratios, within, fractions = [], 0, []
    for layer in e:
        ms = layer["ms"]
        r = [en / d for en, d in zip(ms["enabled"]["values"], ms["disabled"]["values"])]
        rm = statistics.median(r)
        ratios.append(rm)
        within += min(r) <= 1.0 <= max(r)
        if cost is not None:
            fractions.append(cost * 1e-6 / ms["enabled"]["median"])
        frac = f"{fractions[-1]:.1e}" if cost is not None else "-"
        lines.append(f"| {layer['layer']} | {cell(ms['baseline'])} | {cell(ms['disabled'])} | {cell(ms['enabled'])} | "
                     f"{rm:.3f} [{min(r):.3f} - {max(r):.3f}] | {frac} |")
    lines += ["", f"Median over layers of the per-layer median ratio enabled / disabled: "
              f"{statistics.median(ratios):.3f}; for {within} of {len(e)} layers the rounds' ratios span 1.0."]
    if fractions:
        lines += [f"The wrapper's measured cost is at most {max(fractions):.1e} of a layer's time, so any ratio "
                  "away from 1.0 by more than that is the machine's run-to-run noise, not the wrapper."]
    lines += [""]
    svg.bars(os.path.join(plots, "layers.svg"), "ResNet-50 layers: enabled / disabled (median of per-round ratios)",
             [(l["layer"], x) for l, x in zip(e, ratios)], "ratio (1.0 = no overhead)")
    lines += ["![per-layer overhead](performance/layers.svg)", ""]
    return lines


def write(results, docs):
    plots = os.path.join(docs, "performance")
    os.makedirs(plots, exist_ok=True)
    m = results["machine"]
    lines = ["# Performance report", "",
             "Generated by `bench/run.sh` (do not edit by hand; rerun it). "
             f"Machine: {m['cpu']}, {m['cores']} cores, Linux {m['kernel']}; load average {m['load_at_start']:.2f} "
             f"when the run started; {m['date']}.", ""]
    if "hop" in results:
        lines += hop_section(results["hop"], plots)
    if "load" in results:
        lines += load_section(results["load"])
    if "steady" in results:
        lines += steady_section(results["steady"], plots)
    if "scale" in results:
        lines += scale_section(results["scale"], plots)
    if "cold" in results:
        lines += cold_section(results["cold"], plots)
    if "fused" in results:
        lines += fused_section(results["fused"])
    if "batchnorm" in results:
        lines += batchnorm_section(results["batchnorm"])
    if "e2e" in results:
        lines += e2e_section(results["e2e"], results["params"], plots, results.get("steady"))
    lines += open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "report_footer.md")).read().splitlines()
    with open(os.path.join(docs, "performance.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
