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
// draw.js), so every Pause during Play was an unhandled rejection: a `pageerror`. The page ignores exactly those: no
// reason, within a moment of a graph reporting plotly_animationinterrupted (the rejection is queued in the same task;
// a generous bound still cannot swallow a later rejection). Any other rejection still surfaces.
const INTERRUPTION_MS = 1000;
if (!window.__dmlAnimationGuard) {
  window.__dmlAnimationGuard = true;
  window.__dmlInterruptedAt = -Infinity;
  window.addEventListener("unhandledrejection", event => {
    if (event.reason === undefined && performance.now() - window.__dmlInterruptedAt < INTERRUPTION_MS) {
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
    window.Plotly.animate(graph, ...button.args).catch(() => {}); // a Pause interrupts it: that is no error
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

function lighter(trace) {
  const invisibleTargets = trace.type === "scatter" && trace.mode === "markers" && trace.marker?.opacity === 0;
  return webgl && invisibleTargets && pointCount(trace.x) >= WEBGL_FROM ? { ...trace, type: "scattergl" } : trace;
}

// The PNG's file name follows the settings. Plotly.react compares configs and, on any difference, draws the figure
// twice (Plotly.newPlot, then react again): the name is therefore set on the drawn graph instead.
function named(graph, image) {
  graph._context.toImageButtonOptions = { ...image };
  graph.__dmlImage = image;
}

// Plotly.deleteFrames sorts the indices it deletes as text (plotly.js 4.1.1, plot_api.js deleteFrames: [9, 10] sorts
// to [10, 9]), so from eleven frames on it deletes the wrong ones and then throws: they go one at a time, last first.
function replaceFrames(graph, frames) {
  for (let index = graph._transitionData._frames.length - 1; index >= 0; index--) {
    window.Plotly.deleteFrames(graph, [index]);
  }
  return window.Plotly.addFrames(graph, frames);
}

function draw(graph, page, data) {
  const layout = { ...themed(data.figure.layout || {}, page), datarevision: data.revision };
  const texts = Object.fromEntries(Object.entries(layout).map(([key, value]) => [key, JSON.stringify(value)]));
  const { toImageButtonOptions: image, ...config } = data.config;
  const configText = JSON.stringify(config);
  const before = graph.__dmlDrawn;
  graph.__dmlDrawn = { revision: data.revision, frames: data.frames_revision, texts, configText };
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
    return frames.then(() => Object.keys(update).length ? window.Plotly.relayout(graph, update) : undefined);
  }
  graph.__dmlAnimated = false;
  return window.Plotly.react(graph, {
    data: (data.figure.data || []).map(lighter),
    layout,
    frames: data.figure.frames || [],
    config: { ...config, toImageButtonOptions: graph.__dmlImage ?? image },
  }).then(() => named(graph, image));
}

export default function ({ parentElement, data: bytes, setTriggerValue }) {
  const data = JSON.parse(new TextDecoder().decode(bytes));
  let graph = parentElement.querySelector(".dml-chart");
  if (!graph) {
    graph = document.createElement("div");
    graph.className = "dml-chart";
    graph.setAttribute("role", "figure");
    parentElement.appendChild(graph);
    new ResizeObserver(() => {
      const width = Math.floor(parentElement.clientWidth);
      if (graph._fullLayout && width > 0 && width !== graph._fullLayout.width) {
        window.Plotly.relayout(graph, { width });
      }
    }).observe(parentElement);
  }
  graph.setAttribute("aria-label", data.title);
  graph.__dmlData = data;
  graph.__dmlSend = setTriggerValue;
  plotlyLoaded().then(() => {
    if (graph.__dmlData !== data) return; // a newer figure arrived while plotly.js was loading
    return draw(graph, parentElement, data).then(() => {
      if (graph.__dmlClicks) return;
      graph.__dmlClicks = true;
      graph.on("plotly_animatingframe", () => { graph.__dmlAnimated = true; graph.__dmlPlaying = true; });
      graph.on("plotly_animated", () => { graph.__dmlPlaying = false; });
      graph.on("plotly_animationinterrupted", () => {
        window.__dmlInterruptedAt = performance.now();
        graph.__dmlPlaying = false;
      });
      graph.on("plotly_click", event => {
        if (graph.__dmlData.clickable) graph.__dmlSend("select", { points: clickedPoints(event) });
      });
    });
  }).catch(error => {
    graph.textContent = `The figure could not be drawn: ${error.message}`;
  });
}
