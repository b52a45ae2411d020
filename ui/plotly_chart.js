// One Plotly graph that stays on the page while its figure changes: each new figure is a single Plotly.react on the
// same div. st.plotly_chart derives its element's identity from the figure (Streamlit 1.67,
// elements/plotly_chart.py: key_as_main_identity=False), so every change of a setting mounted a new chart that
// plotly drew twice: about two thirds of the browser's time after a change of C on the Depth page.
// plotly.js itself is the one the Python plotly package ships, served from ./static (the server launcher puts it there:
// ui/charts.py, publish_plotly_js).

const PLOTLY_URL = "app/static/plotly.min.js";

function plotlyLoaded() {
  if (!window.__dmlPlotly) {
    window.__dmlPlotly = window.Plotly ? Promise.resolve() : new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = new URL(PLOTLY_URL, document.baseURI).href;
      script.onload = resolve;
      script.onerror = () => {
        window.__dmlPlotly = null;
        reject(new Error(`${PLOTLY_URL} did not load (the server launcher, python -m serve.launch, publishes it)`));
      };
      document.head.appendChild(script);
    });
  }
  return window.__dmlPlotly;
}

// An animation that a Pause (or a new animation, or a redraw) interrupts rejects the promise of the Plotly.animate
// call that started it, with no reason; plotly.js's Play button and slider start animations through
// Plots.executeAPICommand and never catch that promise (src/components/updatemenus/draw.js, src/components/sliders/
// draw.js), so every Pause during Play was an unhandled rejection: a `pageerror`. The page ignores exactly those: each
// plotly_animationinterrupted a graph reports excuses one rejection with no reason. One, because plotly rejects only
// the promise of each interrupted call (its last queued frame holds the reject) and every Play, Pause and slider step
// here interrupts in mode "immediate", which leaves at most one call queued. Counted, not timed: a window of a second
// after the interruption let the rejection through when the redraw that followed it (redrawWhole) kept the page busy
// longer, 1.7 s for the Bitwise figure with the machine loaded. A rejection with no reason and no interruption owed
// still surfaces.
if (!window.__dmlAnimationGuard) {
  window.__dmlAnimationGuard = true;
  window.__dmlInterruptions = 0;
  window.addEventListener("unhandledrejection", event => {
    if (event.reason === undefined && window.__dmlInterruptions > 0) {
      window.__dmlInterruptions -= 1;
      event.preventDefault();
    }
  });
}

// On a projector the presenter plays the figure from the keyboard: K plays, or pauses, the first figure on screen
// that has a Play button, exactly as its own Play and Pause buttons do. A K typed into an input stays a letter.
function menuButton(graph, label) {
  const menus = (graph.layout && graph.layout.updatemenus) || [];
  return menus.flatMap(menu => menu.buttons || []).find(button => button.label === label);
}

if (!window.__dmlPlayKey) {
  window.__dmlPlayKey = true;
  document.addEventListener("keydown", event => {
    if (event.key.toLowerCase() !== "k" || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("input, textarea, select, [contenteditable]")) return;
    const graph = [...document.querySelectorAll(".dml-chart")].find(candidate => {
      const box = candidate.getBoundingClientRect();
      return box.bottom > 0 && box.top < window.innerHeight && menuButton(candidate, "Play");
    });
    const button = graph && menuButton(graph, graph.__dmlPlaying ? "Pause" : "Play");
    if (!button) return;
    event.preventDefault();
    // Uncaught, as the buttons' own: the rejection an interruption leaves is the one it excuses.
    window.Plotly.animate(graph, ...button.args);
  });
}

// What Streamlit's plotly_chart sends back for a click on a point (its selection state's "points"); typed arrays
// become lists so the server reads customdata as it always did.
function clickedPoints(event) {
  return event.points.map(point => ({
    curve_number: point.curveNumber,
    point_number: point.pointNumber,
    point_index: point.pointIndex,
    x: point.x,
    y: point.y,
    customdata: point.customdata == null ? null : Array.from(point.customdata),
  }));
}

// Streamlit's theme drew figures on the page's own background in its own font, and let y axes widen the margin to
// fit their tick labels (its theme's yaxis.automargin: the figures' small left margins count on it); the figures set
// everything else.
function themed(layout, page) {
  const style = getComputedStyle(page);
  const yAxes = Object.entries(layout).filter(([key]) => /^yaxis\d*$/.test(key))
    .map(([key, axis]) => [key, { automargin: true, ...axis }]);
  return {
    paper_bgcolor: "rgba(0,0,0,0)",
    plot_bgcolor: "rgba(0,0,0,0)",
    modebar: { bgcolor: "rgba(0,0,0,0)", color: style.color },
    ...layout,
    ...Object.fromEntries(yAxes),
    font: { family: style.fontFamily, color: style.color, ...(layout.font || {}) },
    width: Math.max(1, Math.floor(page.clientWidth)),
  };
}

// Row labels given as text on a y axis at the figure's left edge widen the left margin (automargin). plotly finds that
// out once it has drawn the figure, and then draws it all again with the wider margin: the Bitwise page's default
// figure (18 rows of 32 labelled bits) was drawn twice, 576 labels each time. Measured here first, with the axis's
// font, the margin they need is given before drawing; plotly then finds it wide enough. The estimate errs wide by a
// few pixels (it counts outside ticks unless the axis has none); an axis with a title, angled or inside labels, or
// labels plotly makes itself is left to plotly. plotly's need: the labels, the ticks, a gap of about 0.2 em, and the
// pad every pushed margin gets (the least of 12 px and the figure's margins: plots.js autoMargin).
const DEFAULT_MARGIN = { l: 80, r: 80, t: 100, b: 80 };
const measuringCanvas = document.createElement("canvas").getContext("2d");

function labelWidth(text, font) {
  measuringCanvas.font = font;
  return String(text).split(/<br\s*\/?>/i)
    .reduce((widest, line) => Math.max(widest, measuringCanvas.measureText(line.replace(/<[^>]*>/g, "")).width), 0);
}

function atLeftEdge(layout, axis) {
  if (axis.anchor === "free") return (axis.position ?? 0) === 0;
  const anchor = layout[`xaxis${(axis.anchor || "x").slice(1)}`];
  return (anchor?.domain?.[0] ?? 0) === 0;
}

function withRowLabelMargin(layout) {
  const margin = { ...DEFAULT_MARGIN, ...(layout.margin || {}) };
  const pad = Math.min(12, margin.l, margin.r, margin.t, margin.b);
  let left = margin.l;
  for (const [key, axis] of Object.entries(layout)) {
    if (!/^yaxis\d*$/.test(key) || axis.automargin === false || axis.side === "right"
        || axis.showticklabels === false || !Array.isArray(axis.ticktext) || axis.title?.text || axis.tickangle
        || String(axis.ticklabelposition ?? "").includes("inside") || !atLeftEdge(layout, axis)) continue;
    const size = axis.tickfont?.size ?? layout.font?.size ?? 12;
    const font = `${size}px ${axis.tickfont?.family ?? layout.font?.family ?? "sans-serif"}`;
    const widest = axis.ticktext.reduce((most, text) => Math.max(most, labelWidth(text, font)), 0);
    const ticks = axis.ticks === "" ? 0 : axis.ticklen ?? 5;
    left = Math.max(left, Math.ceil(widest + ticks + 0.3 * size + 1 + pad));
  }
  return left === margin.l ? layout : { ...layout, margin: { ...(layout.margin || {}), l: left } };
}

// A figure's click targets are invisible markers, one per cell. In SVG each is an element plotly styles on every
// redraw: at the drawing cap (2 x 4,096 of them) more than half of a redraw. WebGL draws them as one buffer, with the
// same hover and clicks; small figures keep SVG, which needs no WebGL context (a page may hold only a few).
const WEBGL_FROM = 1000;
const webgl = (() => {
  const context = document.createElement("canvas").getContext("webgl");
  context?.getExtension("WEBGL_lose_context")?.loseContext();
  return Boolean(context);
})();

const TYPED_BYTES = { i1: 1, u1: 1, i2: 2, u2: 2, i4: 4, u4: 4, f4: 4, f8: 8 };

// A list, or a typed array as plotly's JSON writes it ({dtype, bdata: base64}), without decoding it.
function pointCount(values) {
  if (Array.isArray(values)) return values.length;
  const bytes = Math.floor(((values?.bdata?.length ?? 0) * 3) / 4);
  return bytes / (TYPED_BYTES[values?.dtype] ?? 1);
}

// The served plotly.js is the "cartesian" partial bundle where the set-up fetched it (serve/plotly_bundle.py), which
// has no WebGL traces: asked once, and only by a figure large enough to want them.
function hasScattergl() {
  window.__dmlScattergl ??= "scattergl" in window.Plotly.PlotSchema.get().traces;
  return window.__dmlScattergl;
}

function lighter(trace) {
  const invisibleTargets = trace.type === "scatter" && trace.mode === "markers" && trace.marker?.opacity === 0;
  return webgl && invisibleTargets && pointCount(trace.x) >= WEBGL_FROM && hasScattergl()
    ? { ...trace, type: "scattergl" } : trace;
}

// Cell labels sized to the cells as drawn: the server cannot know the window, and a size chosen for one width was 7 px
// digits at 800 px, or numbers running into each other ("363738") in compare mode. Each heatmap's labels take the
// largest font, up to data.text.max, at which its longest label fits a cell across (a digit is about 0.6 em wide, with
// a tenth of the cell to spare) and down (digits are about 0.7 em high: 0.85 em leaves them a margin). Where the
// longest does not fit at data.text.min, the labels that do are drawn at that size and the longer ones left out
// (inkLabels hides them: at 16 channels of 4 x 4 the three-digit values hid every number, the one- and two-digit ones
// included); where none fits, none is drawn (transparent, so that frames which rewrite the text keep them hidden). The
// hover still gives every value. A change goes through one Plotly.restyle.
function axisOf(layout, name, letter) {
  return layout[`${letter}axis${(name || letter).slice(1)}`];
}

function longestLabel(text) {
  let longest = 1;
  const visit = value => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value != null) longest = Math.max(longest, String(value).length);
  };
  visit(text);
  return longest;
}

function cellPixels(axis) {
  const [low, high] = axis.range;
  return axis._length / Math.max(Math.abs(high - low), 1e-9);
}

// The font a heatmap's labels take in cells of `cellX` by `cellY` pixels: its size, its color (transparent when no
// label fits), and the most characters a drawn label may have (`fits`).
function fittedFont(trace, rule, cellX, cellY, ink) {
  const across = characters => (0.9 * cellX) / (0.6 * characters);
  const fit = Math.floor(Math.min(rule.max, across(longestLabel(trace.text)), 0.85 * cellY));
  if (fit >= rule.min) return { size: fit, color: ink, fits: Infinity };
  const fits = 0.85 * cellY >= rule.min ? Math.floor((0.9 * cellX) / (0.6 * rule.min)) : 0;
  return { size: rule.min, color: fits > 0 ? ink : "rgba(0,0,0,0)", fits };
}

// Rows and columns of a heatmap's z: nested lists, or a typed array as plotly's JSON writes it ({dtype, bdata, shape}).
function gridShape(z) {
  if (Array.isArray(z)) return [z.length, Array.isArray(z[0]) ? z[0].length : 1];
  const shape = String(z?.shape ?? "").split(",").map(Number);
  return shape.length === 2 && shape.every(n => n > 0) ? shape : [1, 1];
}

function labelled(trace) {
  return trace.type === "heatmap" && trace.texttemplate && trace.text != null;
}

// Before a figure is drawn, its labels take the font its cells will have, and its band marks their size, estimated
// from its layout (plotly's default margins where it sets none, and a range from the grid's own size where the axis
// has none): then the drawing is usually final, and fitCellText, which measures the drawn axes, has nothing left to
// change (each change it makes is one more drawing).
function estimatedCell(trace, layout, grid) {
  const margin = { l: 80, r: 80, t: 100, b: 80, ...(layout.margin || {}) };
  const axis = (name, letter) => layout[`${letter}axis${(name || letter).slice(1)}`] || {};
  const xaxis = axis(trace.xaxis, "x"), yaxis = axis(trace.yaxis, "y");
  const [rows, columns] = grid;
  const span = (given, count) => (given ? Math.abs(given[1] - given[0]) : count + 1);
  const share = given => (given ? given[1] - given[0] : 1);
  let cellX = ((layout.width - margin.l - margin.r) * share(xaxis.domain)) / span(xaxis.range, columns);
  let cellY = (((layout.height || 450) - margin.t - margin.b) * share(yaxis.domain)) / span(yaxis.range, rows);
  if (yaxis.scaleanchor) cellX = cellY = Math.min(cellX, cellY);
  return cellX > 0 && cellY > 0 ? [cellX, cellY] : null;
}

function presized(trace, layout, rule, data) {
  if (trace.meta === BAND_MARKS) {
    // Marks sit in the cells of the heatmap on their axes: its grid gives the cells' size.
    const marked = data.find(other => other.type === "heatmap" && other.xaxis === trace.xaxis
                                      && other.yaxis === trace.yaxis);
    const cell = marked && estimatedCell(trace, layout, gridShape(marked.z));
    return cell ? { ...trace, marker: { ...(trace.marker || {}), ...bandMark(...cell) } } : trace;
  }
  if (!rule || !labelled(trace)) return trace;
  const cell = estimatedCell(trace, layout, gridShape(trace.z));
  if (!cell) return trace;
  const { fits, ...font } = fittedFont(trace, rule, ...cell, trace.textfont?.color ?? null);
  return { ...trace, textfont: { ...(trace.textfont || {}), ...font }, __dmlInk: trace.textfont?.color ?? null,
           __dmlFits: fits };
}

// Labels first, then the band marks beside them, then the labels' ink and which of them are drawn.
function fitCellText(graph, rule) {
  const fitted = rule && graph._fullLayout ? fitLabels(graph, rule).then(() => fitBandMarks(graph)) : Promise.resolve();
  return fitted.then(() => inkLabels(graph, pageBackground()));
}

function fitLabels(graph, rule) {
  const sizes = [], colors = [], traces = [];
  graph.data.forEach((trace, index) => {
    if (!labelled(trace)) return;
    const xaxis = axisOf(graph._fullLayout, trace.xaxis, "x");
    const yaxis = axisOf(graph._fullLayout, trace.yaxis, "y");
    if (!xaxis || !yaxis) return;
    trace.__dmlInk ??= trace.textfont?.color ?? null;  // the builder's own label color, if it set one
    const { size, color, fits } = fittedFont(trace, rule, cellPixels(xaxis), cellPixels(yaxis), trace.__dmlInk);
    trace.__dmlFits = fits;
    if (trace.textfont?.size === size && (trace.textfont?.color ?? null) === color) return;
    traces.push(index);
    sizes.push(size);
    colors.push(color);
  });
  return traces.length
    ? window.Plotly.restyle(graph, { "textfont.size": sizes, "textfont.color": colors }, traces)
    : Promise.resolve();
}

// Band marks (viz.common.band_marks) take a third of a cell, and are left out below 4 px, where they would be specks.
const BAND_MARKS = "band-marks";

function bandMark(cellX, cellY) {
  const size = Math.round(Math.min(12, Math.min(cellX, cellY) / 3));
  return { size, opacity: size >= 4 ? 1 : 0 };
}

function fitBandMarks(graph) {
  const sizes = [], opacities = [], traces = [];
  graph.data.forEach((trace, index) => {
    if (trace.meta !== BAND_MARKS) return;
    const xaxis = axisOf(graph._fullLayout, trace.xaxis, "x");
    const yaxis = axisOf(graph._fullLayout, trace.yaxis, "y");
    if (!xaxis || !yaxis) return;
    const { size, opacity } = bandMark(cellPixels(xaxis), cellPixels(yaxis));
    if (trace.marker?.size === size && (trace.marker?.opacity ?? 1) === opacity) return;
    traces.push(index);
    sizes.push(size);
    opacities.push(opacity);
  });
  if (!traces.length) return Promise.resolve();
  return window.Plotly.restyle(graph, { "marker.size": sizes, "marker.opacity": opacities }, traces);
}

// Cell labels are inked by viz/label_ink.js (inkLabels), which ui/charts.py puts before this script: black or
// white, whichever stands out more from each cell as the page shows it, the page's own background behind it.
function pageBackground() {
  return rgba(getComputedStyle(document.querySelector(".stApp") || document.body).backgroundColor);
}

// The PNG's file name follows the settings. Plotly.react compares configs and, on any difference, draws the figure
// twice (Plotly.newPlot, then react again): the name is therefore set on the drawn graph instead.
function named(graph, image) {
  graph._context.toImageButtonOptions = { ...image };
  graph.__dmlImage = image;
}

// Slides: the frame on screen as PNG or SVG, without Play, Pause and the slider (a slide has nothing to click), the
// bottom margin they took given back to the axes' own labels, on the page's background, its labels inked as on the
// page. Drawn in a graph of its own out of sight, whose SVG becomes the file (what Plotly.downloadImage does, but
// with the labels inked before the SVG is taken).
function slide(graph, format) {
  const image = graph.__dmlImage || {};
  const shown = graph._fullLayout;
  const axes = Object.fromEntries(Object.keys(shown).filter(key => /^xaxis\d*$/.test(key))
    .map(key => [key, { ...(graph.layout[key] || {}), automargin: true }]));
  const bottom = Math.min(shown.margin.b, 20);
  const width = shown.width, height = shown.height - shown.margin.b + bottom;
  const background = getComputedStyle(document.querySelector(".stApp") || document.body).backgroundColor;
  const layout = { ...graph.layout, ...axes, updatemenus: [], sliders: [], width, height,
                   margin: { ...(graph.layout.margin || {}), b: bottom }, paper_bgcolor: background };
  const scale = format === "png" ? (image.scale || 2) : 1;
  const sheet = document.createElement("div");
  sheet.style.cssText = "position: absolute; left: -10000px; top: 0";
  document.body.appendChild(sheet);
  return window.Plotly.newPlot(sheet, { data: graph.data, layout, config: { staticPlot: true } }).then(() => {
    inkLabels(sheet, rgba(background));
    const svg = window.Plotly.Snapshot.toSVG(sheet, format, scale);
    return format === "svg" ? `data:image/svg+xml,${encodeURIComponent(svg)}`
      : window.Plotly.Snapshot.svgToImg({ svg, format, width, height, scale, canvas: document.createElement("canvas") });
  }).then(url => {
    const name = `${image.filename || "figure"}.${format}`;
    Object.assign(document.createElement("a"), { href: url, download: name }).click();
  }).finally(() => {
    window.Plotly.purge(sheet);
    sheet.remove();
  });
}

// The toolbar's two slide buttons in place of plotly's own PNG button (which keeps Play and the slider), on charts
// that have a toolbar. Made once, when plotly.js is there for their icons: a config with new functions at every draw
// would count as changed.
function slideButtons(config) {
  if (config.displayModeBar === false) return {};
  window.__dmlSlideButtons ??= [["png", window.Plotly.Icons.camera], ["svg", window.Plotly.Icons.disk]]
    .map(([format, icon]) => ({ name: `Download this frame as ${format.toUpperCase()}: a slide, without Play`,
                                icon, click: graph => slide(graph, format) }));
  return { modeBarButtonsToRemove: [...(config.modeBarButtonsToRemove || []), "toImage"],
           modeBarButtonsToAdd: window.__dmlSlideButtons };
}

// Plotly.deleteFrames sorts the indices it deletes as text (plotly.js 4.1.1, plot_api.js deleteFrames: [9, 10] sorts
// to [10, 9]), so from eleven frames on it deletes the wrong ones and then throws: they go one at a time, last first.
function replaceFrames(graph, frames) {
  for (let index = graph._transitionData._frames.length - 1; index >= 0; index--) {
    window.Plotly.deleteFrames(graph, [index]);
  }
  return window.Plotly.addFrames(graph, frames);
}

// Pause, as the figure's own Pause button does: queued frames are dropped and the running one ends now. Resolves once
// the graph no longer animates.
function stopAnimation(graph) {
  const pause = { mode: "immediate", frame: { duration: 0, redraw: false }, transition: { duration: 0 } };
  return window.Plotly.animate(graph, [null], pause).catch(() => {});
}

// A figure that arrives after an animation (or during one: a setting, a preset or a fix changed while Play ran) is
// drawn whole, on a graph whose animation has ended: Plotly.react kept the old animation running, and its queued
// frames went on writing the old figure's values, outlines and titles into the new one (Bitwise's grid kept a
// FLOAT32 OR's bits under a UINT8 SHIFT_LEFT title 20 s later). newPlot starts from nothing, frames and all; it drops
// the graph's event handlers, which are then attached again.
function redrawWhole(graph, figure) {
  return stopAnimation(graph).then(() => window.Plotly.newPlot(graph, figure)).then(() => {
    graph.__dmlAnimated = false;
    graph.__dmlPlaying = false;
    graph.__dmlClicks = false;
  });
}

// Plotly.react keeps what scale constraints (scaleanchor) worked out for the figure before: they record each
// constrained axis's given range and domain on the drawn layout (axis._inputRange, _inputDomain), react carries
// such private keys over to the new figure's axes, and the constraint then restores the old figure's range and
// domain (plotly.js, cartesian/constraints.js enforce): after a Layouts preset the input buffer's x axis kept
// 5 columns' range and ticks for 3 columns. Forgotten before each react, they are recorded afresh from the new figure.
function forgetConstraints(graph) {
  for (const [key, axis] of Object.entries(graph._fullLayout || {})) {
    if (/^[xy]axis\d*$/.test(key)) {
      delete axis._inputRange;
      delete axis._inputDomain;
    }
  }
}

function draw(graph, page, data) {
  const layout = { ...withRowLabelMargin(themed(data.figure.layout || {}, page)), datarevision: data.revision };
  const texts = Object.fromEntries(Object.entries(layout).map(([key, value]) => [key, JSON.stringify(value)]));
  const { toImageButtonOptions: image, ...config } = data.config;
  const configText = JSON.stringify(config);
  const before = graph.__dmlDrawn;
  graph.__dmlDrawn = { revision: data.revision, frames: data.frames_revision, texts, configText };
  // The same figure again (a rerun that changed nothing drawn here, such as the cross-check's verdict arriving):
  // an animation it finds running plays on.
  const unchanged = before && before.revision === data.revision && before.frames === data.frames_revision
    && before.configText === configText && Object.keys(texts).every(key => before.texts[key] === texts[key])
    && Object.keys(before.texts).every(key => key in texts);
  if (unchanged && graph.__dmlAnimated) return Promise.resolve();
  // An animation changes the traces it was given in place: after one, the figure is drawn again in full.
  if (before && before.revision === data.revision && before.configText === configText && !graph.__dmlAnimated) {
    // Same traces: only the layout keys that changed (a pick's shapes) are relaid out, and the frames replaced if
    // they changed (a pick drawn in every frame). Plotly.react would recompute the whole figure for them.
    named(graph, image);
    const update = {};
    for (const key of new Set([...Object.keys(before.texts), ...Object.keys(texts)])) {
      if (before.texts[key] !== texts[key]) update[key] = key in layout ? layout[key] : null;
    }
    // layout.meta only carries the figure's facts to the server (no text template here reads it); plotly would
    // redraw the whole figure for it.
    if ("meta" in update) {
      graph.layout.meta = layout.meta;
      delete update.meta;
    }
    const frames = before.frames === data.frames_revision ? Promise.resolve()
      : replaceFrames(graph, data.figure.frames || []);
    return frames.then(() => Object.keys(update).length ? window.Plotly.relayout(graph, update) : undefined)
      .then(() => fitCellText(graph, data.text));
  }
  const figure = {
    data: (data.figure.data || []).map((trace, _, traces) => presized(lighter(trace), layout, data.text, traces)),
    layout,
    frames: data.figure.frames || [],
    config: { ...config, toImageButtonOptions: graph.__dmlImage ?? image, ...slideButtons(config) },
  };
  const animating = graph.__dmlAnimated || (graph._transitionData?._frameQueue?.length ?? 0) > 0;
  forgetConstraints(graph);
  const drawn = animating ? redrawWhole(graph, figure) : window.Plotly.react(graph, figure);
  return drawn.then(() => named(graph, image)).then(() => fitCellText(graph, data.text));
}

export default function ({ parentElement, data: bytes, setTriggerValue }) {
  const data = JSON.parse(new TextDecoder().decode(bytes));
  if (data.preload) {  // ui/charts.py preload_plotly: plotly.js for the figures to come, nothing drawn
    plotlyLoaded().catch(() => {});
    return;
  }
  let graph = parentElement.querySelector(".dml-chart");
  if (!graph) {
    graph = document.createElement("div");
    graph.className = "dml-chart";
    graph.setAttribute("role", "figure");
    parentElement.appendChild(graph);
    new ResizeObserver(() => {
      const width = Math.floor(parentElement.clientWidth);
      if (graph._fullLayout && width > 0 && width !== graph._fullLayout.width) {
        window.Plotly.relayout(graph, { width }).then(() => fitCellText(graph, graph.__dmlData.text));
      }
    }).observe(parentElement);
  }
  graph.setAttribute("aria-label", data.title);
  // Busy from a figure's arrival until it is drawn (its labels fitted to its cells): assistive technology waits for
  // the drawing, and so do the browser tests.
  graph.setAttribute("aria-busy", "true");
  graph.__dmlData = data;
  graph.__dmlSend = setTriggerValue;
  plotlyLoaded().then(() => {
    if (graph.__dmlData !== data) return; // a newer figure arrived while plotly.js was loading
    return draw(graph, parentElement, data).then(() => {
      if (graph.__dmlData === data) graph.setAttribute("aria-busy", "false");
      if (graph.__dmlClicks) return;
      graph.__dmlClicks = true;
      graph.on("plotly_afterplot", () => inkLabels(graph, pageBackground()));
      graph.on("plotly_animatingframe", () => { graph.__dmlAnimated = true; graph.__dmlPlaying = true; });
      graph.on("plotly_animated", () => { graph.__dmlPlaying = false; });
      graph.on("plotly_animationinterrupted", () => {
        window.__dmlInterruptions += 1;
        graph.__dmlPlaying = false;
      });
      graph.on("plotly_click", event => {
        if (graph.__dmlData.clickable) graph.__dmlSend("select", { points: clickedPoints(event) });
      });
    });
  }).catch(error => {
    graph.textContent = `The figure could not be drawn: ${error.message}`;
    graph.setAttribute("aria-busy", "false");
  });
}
