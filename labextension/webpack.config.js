// Merged by @jupyterlab/builder into its webpack configuration (package.json: jupyterlab.webpackConfig).
// The cluster plugin's dist file refers to a global `L`: it gets the bundled Leaflet module instead, so the lab
// page's window.L is left as it was.
const path = require('path');
const webpack = require('webpack');

module.exports = {
  plugins: [new webpack.ProvidePlugin({ L: path.resolve(__dirname, '..', 'toolkit', 'mapassets', 'leaflet.js') })]
};
