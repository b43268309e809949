/**
 * toolkit-jupyter: Hangul draws in JupyterLab on a machine without a Korean font (this plugin), and a toolkit
 * widget saved in a notebook shows its static view when no live widget can be drawn (./static-widgets.js).
 *
 * On activation this plugin adds two @font-face rules for the family `toolkit-hangul` (the bundled NanumGothic,
 * regular and bold, cut down to Hangul), served by toolkit's Jupyter server extension under the server's own
 * base URL (`{base_url}toolkit/fonts/…`, so it works under a hub's `/user/NAME/` too), and appends that family as
 * the last fallback of JupyterLab's font variables (ui, content, code). The faces' `unicode-range` is Hangul
 * only: the browser fetches a face the first time Hangul is drawn with it, and never on a page without Hangul.
 * A Korean font installed on the machine under the same name is used instead of the download (`local()`).
 */
import { IThemeManager } from '@jupyterlab/apputils';
import { PageConfig, URLExt } from '@jupyterlab/coreutils';

import staticWidgets from './static-widgets';

export { brokenView, showStaticViews, staticHtml } from './static-widgets';

export const FAMILY = 'toolkit-hangul';

/** Hangul Jamo, Compatibility Jamo, Jamo Extended-A, Syllables, Jamo Extended-B, halfwidth Hangul. */
export const UNICODE_RANGE = 'U+1100-11FF, U+3130-318F, U+A960-A97F, U+AC00-D7A3, U+D7B0-D7FF, U+FFA0-FFDC';

const FACES = [
  { weight: 'normal', file: 'NanumGothic-hangul.woff2', local: ['NanumGothic'] },
  { weight: 'bold', file: 'NanumGothicBold-hangul.woff2', local: ['NanumGothic Bold', 'NanumGothicBold'] }
];

/** JupyterLab 4's own values, used until a theme has set its variables. */
const DEFAULTS = {
  '--jp-ui-font-family':
    "system-ui, -apple-system, blinkmacsystemfont, 'Segoe UI', helvetica, arial, sans-serif, " +
    "'Apple Color Emoji', 'Segoe UI Emoji', 'Segoe UI Symbol'",
  '--jp-content-font-family':
    "system-ui, -apple-system, blinkmacsystemfont, 'Segoe UI', helvetica, arial, sans-serif, " +
    "'Apple Color Emoji', 'Segoe UI Emoji', 'Segoe UI Symbol'",
  '--jp-code-font-family-default': "menlo, consolas, 'DejaVu Sans Mono', monospace",
  '--jp-code-font-family': "menlo, consolas, 'DejaVu Sans Mono', monospace"
};

export function fontFaces(baseUrl) {
  return FACES.map(face => {
    const url = URLExt.join(baseUrl, 'toolkit', 'fonts', face.file);
    const local = face.local.map(name => `local('${name}')`).join(', ');
    return (
      `@font-face { font-family: '${FAMILY}'; font-weight: ${face.weight}; font-style: normal; ` +
      `font-display: block; src: ${local}, url('${url}') format('woff2'); unicode-range: ${UNICODE_RANGE}; }`
    );
  }).join('\n');
}

/** The theme's value of each font variable (this plugin's own rule switched off while reading). */
function themeValues(variablesSheet) {
  variablesSheet.disabled = true;
  const style = getComputedStyle(document.documentElement);
  const out = {};
  for (const [name, fallback] of Object.entries(DEFAULTS)) {
    out[name] = style.getPropertyValue(name).trim() || fallback;
  }
  variablesSheet.disabled = false;
  return out;
}

function variablesRule(values) {
  const lines = Object.entries(values).map(([name, value]) =>
    value.includes(FAMILY) ? `${name}: ${value};` : `${name}: ${value}, '${FAMILY}';`
  );
  // :root:root outranks the theme's :root, whichever stylesheet comes later
  return `:root:root { ${lines.join(' ')} }`;
}

const HANGUL = /[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7a3\ud7b0-\ud7ff\uffa0-\uffdc]/;

/**
 * Once a face of the family has loaded, every text node with Hangul outside an editor is replaced by a copy of
 * itself, which chromium lays out afresh. Without that, the one text whose Hangul started the download (the
 * first Hangul cell of a notebook's first output, say) kept the boxes it was first laid out with, though every
 * other text was drawn again with the face; a new font list did not help, a new node does. Editors
 * (CodeMirror, anything contenteditable) keep their nodes: they own them.
 */
export function redrawHangul(root) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: node =>
      HANGUL.test(node.data) && !(node.parentElement && node.parentElement.closest('.cm-editor, [contenteditable]'))
        ? NodeFilter.FILTER_ACCEPT
        : NodeFilter.FILTER_REJECT
  });
  const nodes = [];
  while (walker.nextNode()) {
    nodes.push(walker.currentNode);
  }
  for (const node of nodes) {
    node.replaceWith(node.cloneNode());
  }
  return nodes.length;
}

const plugin = {
  id: 'toolkit-jupyter:hangul-font',
  description: 'Hangul with the bundled NanumGothic as the last fallback of the lab fonts.',
  autoStart: true,
  optional: [IThemeManager],
  activate: (app, themes) => {
    const faces = document.createElement('style');
    faces.id = 'toolkit-hangul-faces';
    faces.textContent = fontFaces(PageConfig.getBaseUrl());
    const variables = document.createElement('style');
    variables.id = 'toolkit-hangul-variables';
    document.head.append(faces, variables);
    variables.textContent = variablesRule(DEFAULTS);
    if (themes) {
      themes.themeChanged.connect(() => {
        variables.textContent = variablesRule(themeValues(variables.sheet));
      });
    }
    document.fonts.addEventListener('loadingdone', event => {
      if (event.fontfaces.some(face => face.family.replace(/['"]/g, '') === FAMILY)) {
        redrawHangul(document.body);
      }
    });
  }
};

export default [plugin, staticWidgets];
