// The map stylesheets of toolkit/mapassets (pinned npm files) as lib/*.raw.css, which the builder bundles as text
// (its rule for `.raw.css`); the maps' renderer puts them in one <style> (src/maps.js). Run by `npm run build`.
const fs = require('fs');
const path = require('path');

const assets = path.join(__dirname, '..', 'toolkit', 'mapassets');
const lib = path.join(__dirname, 'lib');
fs.mkdirSync(lib, { recursive: true });
for (const name of ['leaflet.css', 'MarkerCluster.css', 'MarkerCluster.Default.css']) {
  fs.copyFileSync(path.join(assets, name), path.join(lib, name.replace(/\.css$/, '.raw.css')));
}
