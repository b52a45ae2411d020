// Cell labels in black or in white, whichever stands out more from their cell as it shows (a translucent cell over
// `background`, the page's own): one of the two has at least 4.58:1 on any color, over the 4.5:1 WCAG 2 asks of text.
// plotly.js writes them white or #444, chosen on the cell as it would show over white: 3.1:1 to 4.3:1 on Okabe-Ito's
// mid-tones (green, vermillion, reddish purple, sky blue, orange), and #444 on tints the dark theme shows dark (1.15:1
// on the Bitwise page's mantissa zeros). One script for the app's charts (ui/charts.py puts it before
// ui/plotly_chart.js) and the animated HTML export (viz/export.py); support/contrast.py computes the same for every
// figure builder (tests/figures/test_contrast.py). Labels whose figure colors them keep their color; hidden ones (too
// small to draw: transparent) stay hidden, and so do those longer than the chart's fitting allows (__dmlFits,
// ui/plotly_chart.js). Plotly draws labels anew at every drawing of the traces (a redraw, a restyle, an animation
// frame), after which it emits plotly_afterplot.
const colorCanvas = document.createElement("canvas").getContext("2d");
const parsedColors = new Map();

// [r, g, b, alpha] (0-255, alpha 0-1) of a CSS color, as the canvas reads it.
function rgba(color) {
  if (!parsedColors.has(color)) {
    colorCanvas.fillStyle = "#000";
    colorCanvas.fillStyle = color;
    const text = colorCanvas.fillStyle; // "#rrggbb", or "rgba(r, g, b, a)" for a translucent color
    parsedColors.set(color, text.startsWith("#")
      ? [1, 3, 5].map(at => parseInt(text.slice(at, at + 2), 16)).concat(1)
      : text.slice(text.indexOf("(") + 1, -1).split(",").map(Number));
  }
  return parsedColors.get(color);
}

// WCAG 2's relative luminance of an sRGB color (0-255).
function luminance(color) {
  const linear = value => (value /= 255) <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  return 0.2126 * linear(color[0]) + 0.7152 * linear(color[1]) + 0.0722 * linear(color[2]);
}

function inkOn(color) {
  const light = luminance(color) + 0.05;
  return light / 0.05 >= 1.05 / light ? "#000000" : "#FFFFFF";
}

// The color plotly gives a heatmap's value z: its colorscale spread over [zmin, zmax], clamped, interpolated in RGBA
// between the stops around it (plotly.js's makeColorScaleFunc, a d3 linear scale: the last of equal stops wins).
function cellColor(trace, z) {
  const scale = trace.colorscale, span = trace.zmax - trace.zmin;
  const at = Math.min(Math.max(span > 0 ? (z - trace.zmin) / span : 0, 0), 1);
  let stop = 1;
  while (stop < scale.length - 1 && scale[stop][0] <= at) stop++;
  const [low, from] = scale[stop - 1], [high, to] = scale[stop];
  const share = high > low ? (at - low) / (high - low) : 0;
  const start = rgba(from), end = rgba(to);
  return start.map((value, channel) => value + share * (end[channel] - value));
}

function inkLabels(graph, background) {
  graph.querySelectorAll("g.hm").forEach(group => {
    const trace = group.__data__?.[0]?.trace;
    if (!trace) return;
    const own = trace.textfont?.color, fits = trace._input?.__dmlFits ?? Infinity;
    const inks = new Map();
    group.querySelectorAll("g.heatmap-label text").forEach(label => {
      if (label.textContent.length > fits) {
        label.style.fill = "rgba(0,0,0,0)"; // too long for its cell at the smallest size (fittedFont)
        return;
      }
      if (own && own !== "auto") return;
      const z = label.__data__?.z;
      if (!inks.has(z)) {
        // A cell without a value (plotly writes its z as "") shows the page.
        const [r, g, b, alpha] = Number.isFinite(z) ? cellColor(trace, z) : [0, 0, 0, 0];
        inks.set(z, inkOn([r, g, b].map((value, channel) => alpha * value + (1 - alpha) * background[channel])));
      }
      label.style.fill = inks.get(z);
    });
  });
}

