/*
 * toolkit-map.js: draws a toolkit map's data form (application/vnd.toolkit.map+json, made by
 * toolkit/mapassets/spec.py) with Leaflet. One drawing code for two places: toolkit's JupyterLab extension (its MIME
 * renderer, which imports this file, so a map draws in an untrusted notebook with no script of the notebook run)
 * and the HTML export (toolkit/jupyter/export.py inlines it with Leaflet, and the first view's tiles embedded).
 *
 * drawMap(L, host, spec, options) -> the L.Map, drawn into the element `host`:
 *   options.tilesUrl   the URL template of toolkit's base map (the Jupyter server's `{base}toolkit/tiles/...`), or null
 *   options.embedded   {"z/x/y": data URL} tiles drawn first (the export), or null
 *   options.fixedView  true: keep the spec's first view as computed (the export), no refit to the container's size
 *   options.sanitize   function (html) -> safe html (JupyterLab's sanitizer); else a strict one of this file
 *   options.markerIcons {iconUrl, iconRetinaUrl, shadowUrl} of Leaflet's default marker
 * Nothing in a spec is run: tooltips and popups are HTML through the sanitizer, colours are checked, styles are
 * data, and the base map is an image layer.
 */
(function (root, factory) {
  if (typeof module === 'object' && module.exports) {
    module.exports = factory();
  } else {
    root.toolkitMap = factory();
  }
})(typeof self !== 'undefined' ? self : this, function () {
  'use strict';

  var NOTE = "No base map here: it needs toolkit's Jupyter extension (open this in Jupyter with toolkit installed)";
  var COLOR = /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20}|rgba?\([\d.,\s%]+\))$/;
  var BLANK = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNgYGBgAAAABQAB' +
    'eqhXUAAAAABJRU5ErkJggg==';
  var ALLOWED = { B: 1, STRONG: 1, I: 1, EM: 1, BR: 1, SPAN: 1, DIV: 1, P: 1, SMALL: 1, SUB: 1, SUP: 1, TABLE: 1,
    THEAD: 1, TBODY: 1, TR: 1, TH: 1, TD: 1, UL: 1, OL: 1, LI: 1, CODE: 1 };

  /** A strict sanitizer: the elements above, no attribute at all; everything else becomes its text. */
  function strictSanitize(html) {
    var doc = new DOMParser().parseFromString('<body>' + String(html) + '</body>', 'text/html');
    function clean(node) {
      var out = [];
      node.childNodes.forEach(function (child) {
        if (child.nodeType === 3) {
          out.push(child.data.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'));
        } else if (child.nodeType === 1) {
          var tag = child.tagName;
          if (tag === 'SCRIPT' || tag === 'STYLE') {
            return;
          }
          var inner = clean(child);
          out.push(ALLOWED[tag] ? '<' + tag.toLowerCase() + '>' + (tag === 'BR' ? '' : inner + '</' + tag.toLowerCase() + '>') : inner);
        }
      });
      return out.join('');
    }
    return clean(doc.body);
  }

  function color(value, fallback) {
    return typeof value === 'string' && COLOR.test(value.trim()) ? value.trim() : fallback;
  }

  function style(s) {
    var out = {};
    Object.keys(s || {}).forEach(function (k) {
      var v = s[k];
      if (k === 'color' || k === 'fillColor') {
        v = color(v, '#3388ff');
      }
      if (typeof v === 'number' || typeof v === 'boolean' || (typeof v === 'string' && v.length < 40)) {
        out[k] = v;
      }
    });
    return out;
  }

  function escapeText(text) {
    return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  }

  function content(c, sanitize) {
    if (!c) {
      return null;
    }
    return c.html !== undefined ? sanitize(String(c.html)) : escapeText(c.text);
  }

  function bind(L, layer, item, sanitize) {
    var tip = content(item.tooltip, sanitize);
    if (tip) {
      layer.bindTooltip(tip, { sticky: true });
    }
    var pop = content(item.popup, sanitize);
    if (pop) {
      layer.bindPopup(pop, { maxWidth: item.popupMaxWidth || 300 });
    }
    return layer;
  }

  function icon(L, spec, options, sanitize) {
    spec = spec || { kind: 'default' };
    if (spec.kind === 'dot') {
      var size = Math.max(4, Math.min(64, Number(spec.size) || 12));
      var c = color(spec.color, '#1f77b4');
      return L.divIcon({
        className: 'toolkit-map-dot',
        iconSize: [size + 4, size + 4],
        iconAnchor: [size / 2 + 2, size / 2 + 2],
        html: '<div style="background:' + c + ';width:100%;height:100%;border-radius:50%;border:2px solid #fff;' +
          'box-shadow:0 0 3px rgba(0,0,0,.6);color:#fff;font:bold ' + Math.max(size - 6, 8) + 'px/' + size +
          'px sans-serif;text-align:center;box-sizing:border-box">' + escapeText(spec.label || '') + '</div>'
      });
    }
    if (spec.kind === 'pin') {
      return L.divIcon({
        className: 'toolkit-map-pin',
        iconSize: [24, 24],
        iconAnchor: [12, 30],
        popupAnchor: [0, -28],
        html: '<div class="toolkit-pin" style="background:' + color(spec.color, '#38aadd') + '"></div>'
      });
    }
    if (spec.kind === 'div') {
      return L.divIcon({
        className: String(spec.className || '').replace(/[^\w -]/g, ''),
        iconSize: spec.size || null,
        iconAnchor: spec.anchor || null,
        html: sanitize(String(spec.html || ''))
      });
    }
    var o = options.markerIcons || {};
    if (!o.iconUrl) {
      return new L.Icon.Default();
    }
    // Leaflet's default icon with its images given (L.Icon.Default would prefix them with a path it guesses)
    return L.icon({ iconUrl: o.iconUrl, iconRetinaUrl: o.iconRetinaUrl, shadowUrl: o.shadowUrl, iconSize: [25, 41],
      iconAnchor: [12, 41], popupAnchor: [1, -34], tooltipAnchor: [16, -28], shadowSize: [41, 41] });
  }

  function layerOf(L, item, options, sanitize) {
    switch (item.type) {
      case 'marker':
        return bind(L, L.marker(item.at, { icon: icon(L, item.icon, options, sanitize) }), item, sanitize);
      case 'circleMarker':
        return bind(L, L.circleMarker(item.center, Object.assign(style(item.style), { radius: item.radius })), item,
          sanitize);
      case 'circle':
        return bind(L, L.circle(item.center, Object.assign(style(item.style), { radius: item.radius })), item,
          sanitize);
      case 'rectangle':
        return bind(L, L.rectangle(item.bounds, style(item.style)), item, sanitize);
      case 'polygon':
        return bind(L, L.polygon(item.latlngs, style(item.style)), item, sanitize);
      case 'polyline':
        return bind(L, L.polyline(item.latlngs, style(item.style)), item, sanitize);
      case 'cluster': {
        var group = L.markerClusterGroup ? L.markerClusterGroup() : L.featureGroup();
        (item.layers || []).forEach(function (child) {
          var l = layerOf(L, child, options, sanitize);
          if (l) {
            group.addLayer(l);
          }
        });
        return group;
      }
      case 'geojson': {
        var styles = item.styles || [];
        var which = item.featureStyle || [];
        var data = item.data || {};
        var feats = data.type === 'FeatureCollection' ? data.features || [] : [data];
        var index = new Map();
        feats.forEach(function (f, i) {
          index.set(f, styles[which[i]] || {});
        });
        var fields = item.tooltipFields || null;
        var aliases = item.tooltipAliases || fields;
        return L.geoJSON(data, {
          style: function (f) {
            return style(index.get(f));
          },
          onEachFeature: function (f, layer) {
            if (fields) {
              var rows = fields.map(function (name, i) {
                var v = (f.properties || {})[name];
                return '<tr><th style="text-align:left;padding-right:6px">' + escapeText(aliases[i]) + '</th><td>' +
                  escapeText(v === null || v === undefined ? '' : v) + '</td></tr>';
              });
              layer.bindTooltip('<table>' + rows.join('') + '</table>', { sticky: true });
            } else if (item.tooltip) {
              layer.bindTooltip(content(item.tooltip, sanitize), { sticky: true });
            }
          }
        });
      }
      default:
        return null;
    }
  }

  function legend(L, map, spec) {
    if (!spec || !spec.items) {
      return;
    }
    var box = L.DomUtil.create('div', 'toolkit-legend', map.getContainer());
    box.style.cssText = 'position:absolute;top:10px;right:10px;z-index:1000;background:rgba(255,255,255,.9);' +
      'padding:6px 8px;border-radius:4px;font-size:12px;box-shadow:0 1px 4px rgba(0,0,0,.4);max-width:45%';
    var html = ['<b>' + escapeText(spec.title || '') + '</b>'];
    spec.items.forEach(function (item) {
      if (item.gradient) {
        var colors = item.gradient.map(function (c) { return color(c, '#cccccc'); }).join(',');
        html.push('<div style="height:10px;width:150px;background:linear-gradient(to right,' + colors + ')"></div>' +
          '<div style="display:flex;justify-content:space-between;width:150px"><span>' + escapeText(item.low) +
          '</span><span>' + escapeText(item.high) + '</span></div>');
      } else {
        html.push('<div><span style="display:inline-block;width:18px;height:5px;background:' +
          color(item.color, '#cccccc') + ';vertical-align:middle;margin-right:6px"></span>' +
          escapeText(item.label) + '</div>');
      }
    });
    box.innerHTML = html.join('');
    L.DomEvent.disableClickPropagation(box);
  }

  function note(L, map) {
    var c = map.getContainer();
    if (c.querySelector('.toolkit-tiles-note')) {
      return;
    }
    var d = L.DomUtil.create('div', 'toolkit-tiles-note', c);
    d.style.cssText = 'position:absolute;left:50%;top:10px;transform:translateX(-50%);z-index:1000;' +
      'background:rgba(255,255,255,.92);padding:3px 8px;border-radius:4px;font:12px sans-serif;max-width:45%;' +
      'text-align:center;pointer-events:none';
    d.textContent = NOTE;
  }

  function baseLayer(L, map, t, options, sanitize) {
    var o = Object.assign({}, t.options || {});
    o.attribution = sanitize(String(t.attribution || ''));
    if (t.kind === 'toolkit') {
      var embedded = options.embedded || null;
      var Layer = L.TileLayer.extend({
        getTileUrl: function (c) {
          var k = c.z + '/' + c.x + '/' + c.y;
          if (embedded && embedded[k]) {
            return embedded[k];
          }
          return options.tilesUrl ? L.Util.template(options.tilesUrl, { z: c.z, x: c.x, y: c.y }) : BLANK;
        }
      });
      var layer = new Layer('', o);
      layer.on('tileerror', function () { note(L, map); });
      layer.on('load', function () {
        Object.keys(layer._tiles).forEach(function (k) {
          var tile = layer._tiles[k];
          if (tile.current && tile.el && tile.el.src === BLANK) {
            note(L, map);
          }
        });
      });
      return layer;
    }
    if (typeof t.url === 'string' && /^https?:\/\//.test(t.url)) {
      return L.tileLayer(t.url, o);
    }
    return null;
  }

  function addCss() {
    if (typeof document === 'undefined' || document.getElementById('toolkit-map-css')) {
      return;
    }
    var style = document.createElement('style');
    style.id = 'toolkit-map-css';
    style.textContent = CSS;
    document.head.appendChild(style);
  }

  function drawMap(L, host, spec, options) {
    options = options || {};
    addCss();
    var sanitize = options.sanitize || strictSanitize;
    var view = spec.view || {};
    var div = document.createElement('div');
    div.className = 'toolkit-map';
    div.style.position = 'relative';
    div.style.width = /^\d+(\.\d+)?(px|%)$/.test(spec.width || '') ? spec.width : '100%';
    div.style.height = /^\d+(\.\d+)?px$/.test(spec.height || '') ? spec.height : '520px';
    if (options.maxWidth) {
      div.style.maxWidth = options.maxWidth + 'px';
    }
    host.appendChild(div);
    var start = options.fixedView || view;
    var map = L.map(div, {
      center: start.center || [0, 0],
      zoom: start.zoom === undefined ? 10 : start.zoom,
      minZoom: view.minZoom,
      maxZoom: view.maxZoom,
      zoomSnap: 1
    });
    (spec.tiles || []).forEach(function (t) {
      var layer = baseLayer(L, map, t, options, sanitize);
      if (layer) {
        layer.addTo(map);
      }
    });
    var layers = typeof spec.layers === 'string' ? JSON.parse(spec.layers) : spec.layers || [];
    layers.forEach(function (item) {
      var layer = layerOf(L, item, options, sanitize);
      if (layer) {
        layer.addTo(map);
      }
    });
    if (spec.scale) {
      L.control.scale({ imperial: false, maxWidth: 120 }).addTo(map);
    }
    legend(L, map, spec.legend);
    var fit = view.fit;
    var touched = false;
    function fitNow() {
      var size = map.getSize();
      if (fit && !touched && !options.fixedView && size.x > 0 && size.y > 0) {
        map.fitBounds(fit.bounds, { padding: fit.padding || [0, 0], maxZoom: fit.maxZoom || undefined });
      }
    }
    ['mousedown', 'touchstart', 'wheel', 'keydown'].forEach(function (kind) {
      div.addEventListener(kind, function () { touched = true; }, { passive: true });
    });
    fitNow();
    if (window.ResizeObserver) {
      new ResizeObserver(function () {
        map.invalidateSize(false);
        fitNow();
      }).observe(div);
    }
    return map;
  }

  var CSS = '.toolkit-map .leaflet-control-attribution{max-width:62%;white-space:normal;line-height:1.25;font-size:10px}' +
    '.toolkit-map{font-family:"toolkit-hangul",var(--jp-ui-font-family,"Helvetica Neue",Arial,Helvetica,sans-serif)}' +
    '.toolkit-map .leaflet-container,.toolkit-map.leaflet-container{font-family:inherit}' +
    '.toolkit-pin{position:relative;width:24px;height:24px;border-radius:50% 50% 50% 0;transform:rotate(-45deg);' +
    'border:2px solid #fff;box-shadow:0 0 3px rgba(0,0,0,.6);box-sizing:border-box}' +
    '.toolkit-pin::after{content:"";position:absolute;left:6px;top:6px;width:8px;height:8px;border-radius:50%;' +
    'background:#fff}';

  return { drawMap: drawMap, strictSanitize: strictSanitize, CSS: CSS, NOTE: NOTE };
});
