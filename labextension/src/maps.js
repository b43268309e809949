/**
 * toolkit maps that draw in any notebook, trusted or not: a MIME renderer for application/vnd.toolkit.map+json.
 *
 * A toolkit map puts its data form (view, base map, markers, lines, GeoJSON with styles, legend; made by
 * toolkit/mapassets/spec.py) in its output beside folium's HTML. JupyterLab runs a MIME renderer whatever the
 * notebook's trust, since it renders data: this one draws the map with the Leaflet bundled here (the pinned files of
 * toolkit/mapassets, no CDN), through the drawing code the HTML export uses too (toolkit/mapassets/toolkit-map.js).
 * No script of the notebook runs; tooltips and popups go through JupyterLab's sanitizer; the base map's tiles come
 * from toolkit's Jupyter server extension under the server's own base URL (`{base}toolkit/tiles/{z}/{x}/{y}.png`).
 * Its rank (40) comes before HTML (50), so a trusted notebook draws the same way.
 */
import { PageConfig } from '@jupyterlab/coreutils';
import { Widget } from '@lumino/widgets';

import L from '../../toolkit/mapassets/leaflet.js';
import '../../toolkit/mapassets/leaflet.markercluster.js';
import toolkitMap from '../../toolkit/mapassets/toolkit-map.js';
import iconUrl from '../../toolkit/mapassets/marker-icon.png';
import iconRetinaUrl from '../../toolkit/mapassets/marker-icon-2x.png';
import shadowUrl from '../../toolkit/mapassets/marker-shadow.png';
import leafletCss from '../lib/leaflet.raw.css';
import clusterCss from '../lib/MarkerCluster.raw.css';
import clusterDefaultCss from '../lib/MarkerCluster.Default.raw.css';

// Leaflet sets window.L when it loads; give the page back whatever it had (another extension's Leaflet): this
// module and the cluster plugin use their own reference (webpack's ProvidePlugin, webpack.config.js)
L.noConflict();

export const MIME = 'application/vnd.toolkit.map+json';

/** The tiles of toolkit's Jupyter server extension under this page's base URL. */
export function tilesUrl(baseUrl) {
  const base = baseUrl.endsWith('/') ? baseUrl : baseUrl + '/';
  return base + 'toolkit/tiles/{z}/{x}/{y}.png';
}

let styled = false;

function addStyles() {
  if (styled) {
    return;
  }
  styled = true;
  const style = document.createElement('style');
  style.id = 'toolkit-map-styles';
  // leaflet.css names images next to itself (layers control, default icon) that the maps do not use
  const own = leafletCss.replace(/url\(images\/[^)]*\)/g, 'none');
  style.textContent = [own, clusterCss, clusterDefaultCss].join('\n');
  document.head.append(style);
}

export class MapRenderer extends Widget {
  constructor(options) {
    super();
    this._mimeType = options.mimeType;
    this._sanitizer = options.sanitizer;
    this._map = null;
    this.addClass('toolkit-map-output');
  }

  renderModel(model) {
    const spec = model.data[this._mimeType];
    if (this._map) {
      this._map.remove();
      this._map = null;
    }
    this.node.textContent = '';
    addStyles();
    const sanitizer = this._sanitizer;
    this._map = toolkitMap.drawMap(L, this.node, spec, {
      tilesUrl: tilesUrl(PageConfig.getBaseUrl()),
      sanitize: html => (sanitizer ? sanitizer.sanitize(html) : toolkitMap.strictSanitize(html)),
      markerIcons: { iconUrl, iconRetinaUrl, shadowUrl }
    });
    return Promise.resolve();
  }

  onAfterShow() {
    if (this._map) {
      this._map.invalidateSize(false);
    }
  }

  onResize() {
    if (this._map) {
      this._map.invalidateSize(false);
    }
  }

  dispose() {
    if (this._map) {
      this._map.remove();
      this._map = null;
    }
    super.dispose();
  }
}

export const rendererFactory = {
  safe: true,
  mimeTypes: [MIME],
  defaultRank: 40,
  createRenderer: options => new MapRenderer(options)
};

export default {
  id: 'toolkit-jupyter:maps',
  description: "Draws toolkit maps from their data, in trusted and untrusted notebooks alike.",
  rendererFactory,
  rank: 40,
  dataType: 'json'
};
