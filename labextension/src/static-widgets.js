/**
 * A toolkit widget saved in a notebook shows its static view when the live widget cannot be drawn.
 *
 * toolkit's widgets (LoginWidget, ConsentPanel) put a static view next to the widget view in their output's mime
 * bundle: `text/html` holding a `<div class='toolkit-static-widget'>`. JupyterLab with ipywidgets always picks the
 * widget view, and a notebook reopened without the kernel that made it shows "Loading widget..." for good (no
 * kernel), "Error displaying widget: model not found" (a new kernel, no saved state) or the saved controls with
 * their red disconnected mark. For such an output this plugin hides the widget view and draws the static view
 * (through JupyterLab's sanitizer) right after it, in the same output; the moment the widget view draws a live
 * widget, the static view goes and the widget shows as usual.
 *
 * Example: a notebook that ran `display(LoginWidget(tk))`, saved, reopened with no kernel shows
 * "LoginWidget: … run this cell to log in" instead of "Loading widget...".
 */
import { ISanitizer, Sanitizer } from '@jupyterlab/apputils';

export const MARKER = 'toolkit-static-widget';
export const WIDGET_MIME = 'application/vnd.jupyter.widget-view+json';
/** The class of a widget view replaced by its static view, and of the static view drawn after it. */
export const REPLACED = 'toolkit-widget-replaced';
export const STATIC_VIEW = 'toolkit-static-view';

/** What ipywidgets' renderer writes when it cannot draw the widget (its whole text then). */
const BROKEN_TEXT = /^(Loading widget\.\.\.|Error displaying widget)/;

/** Whether a widget view's node shows no live widget: ipywidgets' placeholder or error, or a disconnected view. */
export function brokenView(node) {
  if (node.classList.contains('jupyter-widgets-disconnected') || node.querySelector('.jupyter-widgets-disconnected')) {
    return true;
  }
  return node.children.length === 0 && BROKEN_TEXT.test((node.textContent || '').trim());
}

/** The static view's HTML of an output's data, or null when the output is not a toolkit widget's. */
export function staticHtml(data) {
  if (!data || !data[WIDGET_MIME]) {
    return null;
  }
  let html = data['text/html'];
  if (Array.isArray(html)) {
    html = html.join('');
  }
  return typeof html === 'string' && html.includes(MARKER) ? html : null;
}

/** The Lumino widget whose node is `node`, searched from `widget` down through the widgets that contain it. */
function widgetOf(widget, node) {
  if (widget.node === node) {
    return widget;
  }
  if (!widget.node.contains(node) || typeof widget.children !== 'function') {
    return null;
  }
  for (const child of widget.children()) {
    const found = widgetOf(child, node);
    if (found) {
      return found;
    }
  }
  return null;
}

/** The output data shown by the output node `node` (a `.jp-OutputArea-output`), from its output area's model. */
function outputData(shell, node) {
  const areaNode = node.closest('.jp-OutputArea');
  const area = areaNode && widgetOf(shell, areaNode);
  if (!area || !area.model || typeof area.model.get !== 'function' || !area.widgets) {
    return null;
  }
  const index = area.widgets.findIndex(child => child.node.contains(node));
  const output = index >= 0 && index < area.model.length ? area.model.get(index) : null;
  return output ? output.data : null;
}

/** Widget views known to be no toolkit widget's (a renderer's node keeps its output for good). */
const others = new WeakSet();

/** Bring every widget view under `root` in line: static view where no live widget is drawn, else the widget. */
export function showStaticViews(shell, root, sanitizer) {
  let shown = 0;
  for (const node of root.querySelectorAll(`.jp-OutputArea-output:not(.${STATIC_VIEW})`)) {
    const next = node.nextElementSibling;
    const drawn = next && next.classList.contains(STATIC_VIEW) ? next : null;
    if (!brokenView(node)) {
      if (drawn || node.classList.contains(REPLACED)) {
        node.classList.remove(REPLACED);
        drawn && drawn.remove();
      }
      continue;
    }
    if (drawn) {
      shown += 1;
      continue;
    }
    const html = others.has(node) ? null : staticHtml(outputData(shell, node));
    if (html === null) {
      others.add(node);
      continue;
    }
    const view = document.createElement('div');
    view.className = `${STATIC_VIEW} jp-OutputArea-output jp-RenderedHTMLCommon jp-RenderedHTML`;
    view.innerHTML = sanitizer.sanitize(html);
    node.classList.add(REPLACED);
    node.after(view);
    shown += 1;
  }
  return shown;
}

const plugin = {
  id: 'toolkit-jupyter:static-widgets',
  description: "A toolkit widget's saved output shows its static view where the live widget cannot be drawn.",
  autoStart: true,
  optional: [ISanitizer],
  activate: (app, sanitizer) => {
    sanitizer = sanitizer || new Sanitizer();
    let pending = null;
    const update = () => {
      pending = null;
      showStaticViews(app.shell, document.body, sanitizer);
    };
    // outputs are drawn, and ipywidgets' renderer changes its text, long after the lab has started
    new MutationObserver(() => {
      if (pending === null) {
        pending = setTimeout(update, 250);
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  }
};

export default plugin;
