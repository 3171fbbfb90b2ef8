#!/usr/bin/env python3
"""Build the Vietnam: Rumor of War theatre map (``data/row/map/``) from geography already in the repository.

Run by hand from the repository root with the project's own environment (numpy and Pillow; no shapely,
no network)::

    .venv/bin/python tools/build_row_map.py [--png /tmp/row/theatre.png] [--window /tmp/row/icorps.png]

The printed map is not in our source text (digest 5.1-5.2), so everything written here is a
*reconstruction* (digest 5.3), and every output row says how it was made.  The choices are recorded as
decisions R-MAP-01 to R-MAP-18 in ``data/row/decisions.csv``.

Inputs (all committed):

* ``data/geo/land.geojson``, ``countries.geojson``, ``borders.geojson`` (DMZ line), ``rivers.geojson``
  (Mekong, Bassac): GSHHG 2.3.6, see ``data/geo/PROVENANCE.md``.  Polygons are rasterised with Pillow at
  0.005 degree and read at about 25 sample points per hex (R-MAP-02).
* ``data/yotr/hexes.csv``: Year of the Rat's 10 km hexes, whose rough/clear terrain was classified from
  the NOAA ETOPO1 colour relief; used here only as a relief proxy south of 17.6 N (R-MAP-04).
* ``data/row/map/terrain_corrections.csv``: hand corrections, one reason per row (R-MAP-05).
* The tables below (places of digest 5.4, terrain regions, Corps lines, roads, the trail, rivers),
  each with its reasoning.

Outputs: ``hexes.csv``, ``hexsides.csv``, ``places.csv``, ``roads.csv``, ``areas.csv`` (and it checks
``tec.csv`` and the corrections file exist); ``--png``/``--window`` draw check pictures (not committed).
"""

from __future__ import annotations

import argparse
import csv
import heapq
import json
import math
import sys
from collections import defaultdict, deque
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from wargames.maps.hexgrid import hex_id, hexside, parse_hex  # noqa: E402
from wargames.row.hexmap import (  # noqa: E402
    COL_MI,
    COLS,
    HEX_MI,
    RADIUS_MI,
    ROWS,
    centre_xy,
    corners_xy,
    grid,
    hex_at,
    hex_at_xy,
    to_lonlat,
    to_xy,
)

GEO = ROOT / "data" / "geo"
OUT = ROOT / "data" / "row" / "map"
YOTR_HEXES = ROOT / "data" / "yotr" / "hexes.csv"

LAND_MIN = 0.25  # a hex is land when GSHHG land covers at least this share of its sample points (R-MAP-02)
RASTER_DEG = 0.005  # raster cell of the land and country masks
BOX = (103.8, 8.2, 110.0, 23.2)  # raster box lon0, lat0, lon1, lat1
STATION_LAT = 14.5  # the Station line (digest 5.3): Yankee Station north, Dixie Station south (R-MAP-12)
RELIEF_NORTH = 17.55  # Year of the Rat's map (the relief proxy) covers only south of its top row at 17.6 N
ROUGH_SHARE = 0.5  # share of YotR 'rough' samples that makes a hex mountain (R-MAP-04)
COUNTRY_CODES = ("NVN", "SVN", "LAO", "KHM", "THA")

# --------------------------------------------------------------------------- places (digest 5.4)
# id|name|lat|lon|country|area|kind|digest kind|role.  Country codes: border = on an international line.
# kind: city / town (TEC settlement rows, VC recruitment 13.1.2), base, site (a landmark), box (off-map box).
PLACES_TXT = """\
hanoi|Hanoi|21.03|105.85|NVN|North Vietnam|city|city|PAVN supply source (reconstr.); 'Downtown'
hoa_lo_prison|Hoa Lo prison ('Hanoi Hilton')|21.03|105.85|NVN|North Vietnam|site|site|POW track name
haiphong|Haiphong|20.86|106.68|NVN|North Vietnam|city|city/port|PAVN supply source (reconstr.)
hon_gai|Hon Gai|20.95|107.08|NVN|North Vietnam|town|town|
lang_son|Lang Son|21.85|106.76|NVN|North Vietnam|town|town|
friendship_pass|Friendship Pass (Huu Nghi)|21.98|106.71|border|North Vietnam|site|border crossing|PRC supply source (reconstr.)
cao_bang|Cao Bang|22.67|106.26|NVN|North Vietnam|town|town|
lao_cai|Lao Cai|22.49|103.97|NVN|North Vietnam|town|town|PRC supply source (reconstr.; on the west map edge)
yen_bai|Yen Bai|21.72|104.90|NVN|North Vietnam|town|town|
thai_nguyen|Thai Nguyen|21.59|105.84|NVN|North Vietnam|city|city|
kep_airfield|Kep airfield|21.40|106.26|NVN|North Vietnam|base|airfield|
phuc_yen|Phuc Yen (Noi Bai) airfield|21.22|105.81|NVN|North Vietnam|base|airfield|
son_tay|Son Tay|21.14|105.50|NVN|North Vietnam|town|town|1970 POW raid (POW Rescue flavour)
hoa_binh|Hoa Binh|20.82|105.34|NVN|North Vietnam|town|town|
nam_dinh|Nam Dinh|20.43|106.18|NVN|North Vietnam|city|city|
ninh_binh|Ninh Binh|20.25|105.97|NVN|North Vietnam|town|town|
thanh_hoa|Thanh Hoa|19.81|105.78|NVN|North Vietnam|city|city|
ham_rong_bridge|Ham Rong bridge ('Dragon's Jaw')|19.84|105.80|NVN|North Vietnam|site|bridge|
vinh|Vinh|18.67|105.69|NVN|North Vietnam|city|city|HCM Trail origin (TEXT 14.7)
ha_tinh|Ha Tinh|18.34|105.90|NVN|North Vietnam|town|town|
quang_khe|Quang Khe|17.70|106.47|NVN|North Vietnam|town|port|
dong_hoi|Dong Hoi|17.47|106.60|NVN|North Vietnam|town|town|HCM Trail origin (TEXT 14.7)
mu_gia_pass|Mu Gia Pass|17.68|105.78|border|North Vietnam|site|pass (~)|trail entry
ban_karai_pass|Ban Karai Pass|17.20|106.15|border|North Vietnam|site|pass (~)|trail entry
vinh_linh|Vinh Linh|17.03|107.00|NVN|DMZ|town|town (~)|
ben_hai_river_mouth|Ben Hai River mouth (Cua Tung)|17.02|107.11|border|DMZ|site|river|DMZ line
nanning|Nanning|22.82|108.32|CHN|off-map|city|city|North China Airbase box flavour
gio_linh|Gio Linh|16.92|107.07|SVN|I Corps|base|base (~)|
con_thien|Con Thien|16.91|106.99|SVN|I Corps|base|base (~)|
dong_ha|Dong Ha|16.82|107.10|SVN|I Corps|town|town|
cua_viet|Cua Viet|16.90|107.18|SVN|I Corps|town|port (~)|
camp_carroll|Camp Carroll|16.76|106.95|SVN|I Corps|base|base (~)|
the_rockpile|The Rockpile|16.79|106.87|SVN|I Corps|site|hill (~)|
khe_sanh_combat_base|Khe Sanh Combat Base|16.66|106.73|SVN|I Corps|base|base|
lang_vei|Lang Vei|16.62|106.64|SVN|I Corps|base|SF camp (~)|
quang_tri|Quang Tri|16.75|107.19|SVN|I Corps|city|city|
hue|Hue|16.46|107.59|SVN|I Corps|city|city|Capitalist supply source (reconstr.)
phu_bai|Phu Bai|16.40|107.70|SVN|I Corps|base|base|
a_luoi|A Luoi / A Shau valley|16.23|107.23|SVN|I Corps|site|valley (~)|
hai_van_pass|Hai Van Pass|16.19|108.13|SVN|I Corps|site|pass|
da_nang|Da Nang|16.05|108.21|SVN|I Corps|city|city/port/airbase|Capitalist supply source (reconstr.)
hoi_an|Hoi An|15.88|108.33|SVN|I Corps|town|town|
an_hoa|An Hoa|15.80|108.00|SVN|I Corps|base|base (~)|
que_son_valley|Que Son valley|15.68|108.23|SVN|I Corps|site|valley (~)|
kham_duc|Kham Duc|15.44|107.80|SVN|I Corps|base|SF camp (~)|
tam_ky|Tam Ky|15.57|108.48|SVN|I Corps|town|town|
chu_lai|Chu Lai|15.41|108.71|SVN|I Corps|base|base/port|Capitalist supply source candidate
van_tuong_peninsula|Van Tuong peninsula (Op. Starlite)|15.32|108.82|SVN|I Corps|site|battle site (~)|PUBLIC-EXAMPLE
quang_ngai|Quang Ngai|15.12|108.80|SVN|I Corps|city|city|
ba_to|Ba To|14.77|108.73|SVN|I Corps|base|SF camp (~)|
dak_to|Dak To / Tan Canh|14.69|107.84|SVN|II Corps|base|base|
ben_het|Ben Het|14.70|107.67|SVN|II Corps|base|SF camp (~)|
kontum|Kontum|14.35|108.00|SVN|II Corps|city|city|
pleiku|Pleiku|13.98|108.00|SVN|II Corps|city|city/airbase|
plei_me|Plei Me|13.80|107.91|SVN|II Corps|base|SF camp (~)|
duc_co|Duc Co|13.81|107.67|SVN|II Corps|base|SF camp (~)|
chu_pong|Chu Pong / Ia Drang|13.57|107.70|SVN|II Corps|site|battle site (~)|
an_khe|An Khe|13.96|108.66|SVN|II Corps|base|base|1st Cavalry base
mang_yang_pass|Mang Yang Pass|13.98|108.35|SVN|II Corps|site|pass (~)|
bong_son|Bong Son|14.43|109.01|SVN|II Corps|town|town|
qui_nhon|Qui Nhon|13.78|109.22|SVN|II Corps|city|city/port|Capitalist supply source (reconstr.)
cheo_reo|Cheo Reo (Phu Bon)|13.40|108.43|SVN|II Corps|town|town (~)|
tuy_hoa|Tuy Hoa|13.09|109.30|SVN|II Corps|city|city/airbase|
ban_me_thuot|Ban Me Thuot|12.67|108.04|SVN|II Corps|city|city|
nha_trang|Nha Trang|12.24|109.19|SVN|II Corps|city|city/port|Capitalist supply source (reconstr.)
cam_ranh|Cam Ranh|11.92|109.16|SVN|II Corps|base|port/airbase|Capitalist supply source (reconstr.)
da_lat|Da Lat|11.94|108.44|SVN|II Corps|city|city|
gia_nghia|Gia Nghia|12.00|107.69|SVN|II Corps|town|town (~)|
bao_loc|Bao Loc|11.54|107.81|SVN|II Corps|town|town|
phan_rang|Phan Rang|11.57|108.99|SVN|II Corps|town|town/airbase|
phan_thiet|Phan Thiet|10.93|108.10|SVN|II Corps|town|town|
saigon|Saigon|10.78|106.70|SVN|CMD|city|capital|Capitalist supply source (reconstr.)
tan_son_nhut|Tan Son Nhut airbase|10.82|106.66|SVN|CMD|base|airbase|
bien_hoa|Bien Hoa|10.95|106.82|SVN|III Corps|city|city/airbase|Capitalist supply source (reconstr.)
long_binh|Long Binh|10.95|106.88|SVN|III Corps|base|base (~)|
cu_chi|Cu Chi|10.97|106.49|SVN|III Corps|town|town (tunnels)|tunnel setup candidate
iron_triangle|Iron Triangle (centre)|11.12|106.57|SVN|III Corps|site|region (~)|VC recruitment/LoC (TEXT)
ben_cat|Ben Cat|11.16|106.59|SVN|III Corps|town|town (~)|
lai_khe|Lai Khe|11.27|106.62|SVN|III Corps|base|base (~)|
thu_dau_mot|Thu Dau Mot|10.98|106.65|SVN|III Corps|town|town|
dau_tieng|Dau Tieng|11.36|106.36|SVN|III Corps|town|town (~)|
tay_ninh|Tay Ninh|11.31|106.10|SVN|III Corps|city|city|
nui_ba_den|Nui Ba Den|11.38|106.17|SVN|III Corps|site|mountain|
war_zone_c|War Zone C (centre)|11.55|106.05|SVN|III Corps|site|region (~)|VC recruitment/LoC (TEXT)
war_zone_d|War Zone D (centre)|11.20|107.00|SVN|III Corps|site|region (~)|VC recruitment/LoC (TEXT)
loc_ninh|Loc Ninh|11.84|106.60|SVN|III Corps|town|town|
an_loc|An Loc|11.65|106.61|SVN|III Corps|town|town|Easter Offensive siege
phuoc_binh|Phuoc Binh / Song Be|11.80|106.98|SVN|III Corps|town|town (~)|
dong_xoai|Dong Xoai|11.53|106.90|SVN|III Corps|town|town|
xuan_loc|Xuan Loc|10.93|107.24|SVN|III Corps|town|town|
ba_ria|Ba Ria|10.50|107.17|SVN|III Corps|town|town|
nui_dat|Nui Dat|10.58|107.21|SVN|III Corps|base|base (~)|Australian task force
vung_tau|Vung Tau|10.35|107.08|SVN|III Corps|town|port|Capitalist supply source (reconstr.)
rung_sat|Rung Sat|10.55|106.88|SVN|III Corps|site|swamp (~)|
bao_trai|Bao Trai (Hau Nghia)|10.88|106.40|SVN|III Corps|town|town (~)|
tan_an|Tan An|10.54|106.41|SVN|III Corps|town|town|
my_tho|My Tho|10.36|106.36|SVN|IV Corps|city|city|Capitalist supply source (reconstr.)
ben_tre|Ben Tre|10.24|106.38|SVN|IV Corps|town|town|
vinh_long|Vinh Long|10.25|105.97|SVN|IV Corps|city|city|
sa_dec|Sa Dec|10.29|105.76|SVN|IV Corps|town|town|
can_tho|Can Tho|10.04|105.79|SVN|IV Corps|city|city|Capitalist supply source (reconstr.)
long_xuyen|Long Xuyen|10.38|105.44|SVN|IV Corps|town|town|
chau_doc|Chau Doc|10.70|105.12|SVN|IV Corps|town|town|
cao_lanh|Cao Lanh|10.46|105.63|SVN|IV Corps|town|town|
plain_of_reeds|Plain of Reeds (centre)|10.70|105.90|SVN|IV Corps|site|swamp (~)|
rach_gia|Rach Gia|10.01|105.09|SVN|IV Corps|town|town|
ha_tien|Ha Tien|10.38|104.49|SVN|IV Corps|town|town|
seven_mountains|Seven Mountains (That Son)|10.45|104.95|SVN|IV Corps|site|hills (~)|
soc_trang|Soc Trang|9.60|105.98|SVN|IV Corps|town|town|
bac_lieu|Bac Lieu|9.29|105.72|SVN|IV Corps|town|town|
ca_mau|Ca Mau|9.18|105.15|SVN|IV Corps|town|town|
u_minh_forest|U Minh forest (centre)|9.45|104.95|SVN|IV Corps|site|swamp (~)|
vientiane|Vientiane|17.97|102.61|LAO|off-map|city|capital|off the map (west of 104 E)
luang_prabang|Luang Prabang|19.89|102.14|LAO|off-map|city|city|off the map
plain_of_jars|Plain of Jars (Phonsavan)|19.45|103.22|LAO|off-map|site|plateau|off the map
sam_neua|Sam Neua|20.42|104.05|LAO|Laos|town|town|Pathet Lao source candidate (map edge)
thakhek|Thakhek|17.41|104.80|LAO|Laos|town|town|
mahaxay|Mahaxay|17.42|105.20|LAO|Laos|town|town (~)|
savannakhet|Savannakhet|16.55|104.75|LAO|Laos|city|city|Laotian supply source (reconstr.)
tchepone|Tchepone (Sepon)|16.69|106.22|LAO|Laos|town|town|HCM terminus T1 (BA 604)
muang_phin|Muang Phin|16.53|106.01|LAO|Laos|town|town (~)|
saravane|Saravane|15.71|106.42|LAO|Laos|town|town|
pakse|Pakse|15.12|105.80|LAO|Laos|city|city|Laotian supply source (reconstr.)
paksong|Paksong (Bolovens Plateau)|15.18|106.23|LAO|Laos|town|town|
attapeu|Attapeu|14.81|106.83|LAO|Laos|town|town|
phnom_penh|Phnom Penh|11.56|104.92|KHM|Cambodia|city|capital|Cambodian supply source (reconstr.)
kampong_cham|Kampong Cham|11.99|105.46|KHM|Cambodia|city|city|
kratie|Kratie|12.49|106.02|KHM|Cambodia|town|town|
stung_treng|Stung Treng|13.53|105.97|KHM|Cambodia|town|town|
banlung|Banlung (Ratanakiri)|13.74|106.99|KHM|Cambodia|town|town (~)|HCM terminus T5 (BA 702 area); Khmer Rouge source
snuol|Snuol|12.07|106.43|KHM|Cambodia|town|town|
mimot|Mimot / Fishhook|11.83|106.19|KHM|Cambodia|town|border salient (~)|HCM terminus T6 (BA 352-353); end of the trail (text hex 0970)
svay_rieng|Svay Rieng / Parrot's Beak|11.09|105.80|KHM|Cambodia|town|town/salient|
neak_luong|Neak Luong|11.26|105.28|KHM|Cambodia|town|town|
takeo|Takeo|10.99|104.78|KHM|Cambodia|town|town|
kampong_som|Kampong Som (Sihanoukville)|10.63|103.52|KHM|off-map|town|port|Cambodian supply source (reconstr.); off the map, stand-in on the edge
yankee_station|Yankee Station|17.5|108.5|sea|box|box|sea zone (~)|7th Fleet station north (off-map box)
dixie_station|Dixie Station|11.0|110.0|sea|box|box|sea zone (~)|7th Fleet station south (off-map box)
"""
# Sites the digest names only in 5.3 (trail termini T2-T4, R-MAP-09) and the stand-ins of off-map sources (R-MAP-11).
EXTRA_PLACES_TXT = """\
ba_611|Base Area 611 (west of the A Shau)|16.25|106.98|LAO|Laos|site|base area (~)|HCM terminus T2
chavane|Chavane (Base Area 614)|15.85|107.05|LAO|Laos|site|base area (~)|HCM terminus T3
ba_609|Base Area 609 (tri-border)|14.68|107.45|LAO|Laos|site|base area (~)|HCM terminus T4
kampot_edge|Kampong Som supply (map edge at Kampot)|10.61|104.18|KHM|Cambodia|site|stand-in|Cambodian supply source for Kampong Som, moved onto the map
"""
# supply sources by nationality (digest 5.3 'Supply sources', R-MAP-11)
SUPPLY = {
    "capitalist": (
        "saigon",
        "bien_hoa",
        "vung_tau",
        "da_nang",
        "hue",
        "qui_nhon",
        "cam_ranh",
        "nha_trang",
        "can_tho",
        "my_tho",
    ),
    "pavn": ("hanoi", "haiphong", "vinh"),
    "prc": ("friendship_pass", "lao_cai"),
    "laotian": ("savannakhet", "pakse"),
    "cambodian": ("phnom_penh", "kampot_edge"),
    "pathet_lao": ("sam_neua",),
    "khmer_rouge": ("banlung",),
}
TERMINI = {
    "tchepone": 1,
    "ba_611": 2,
    "chavane": 3,
    "ba_609": 4,
    "banlung": 5,
    "mimot": 6,
}  # 14.7, digest 5.3
TEXT_HEX = {"mimot": "0970"}  # the one hex number the rules print (14.7): the end of the trail

# --------------------------------------------------------------------------- terrain regions (R-MAP-04)
# Polygons as (lon, lat); a hex belongs when its centre is inside.  General geographic knowledge, coarse.
SWAMPS = {
    "Plain of Reeds": [
        (105.45, 10.95),
        (105.8, 11.0),
        (106.1, 10.9),
        (106.25, 10.65),
        (106.05, 10.5),
        (105.7, 10.5),
        (105.45, 10.7),
    ],
    "U Minh forest": [(104.8, 9.95), (105.15, 9.95), (105.25, 9.55), (105.05, 9.2), (104.8, 9.25)],
    "Ca Mau mangroves": [(104.7, 9.05), (105.3, 9.05), (105.4, 8.75), (105.0, 8.45), (104.7, 8.5)],
    "Rung Sat mangroves": [(106.7, 10.72), (106.98, 10.7), (107.05, 10.5), (106.9, 10.35), (106.7, 10.45)],
    "Tonle Sap flood plain": [
        (103.9, 13.2),
        (104.25, 13.1),
        (104.6, 12.7),
        (104.5, 12.45),
        (104.1, 12.6),
        (103.9, 12.8),
    ],
}
MOUNTAINS = {  # only where the relief proxy does not reach
    "Elephant Mountains": [(104.0, 11.5), (104.35, 11.45), (104.4, 11.0), (104.2, 10.75), (104.0, 10.8)],
}
CULTIVATED = {
    "Red River Delta": [
        (105.3, 21.3),
        (105.75, 21.5),
        (106.2, 21.4),
        (106.6, 21.15),
        (106.9, 20.95),
        (106.75, 20.6),
        (106.5, 20.2),
        (106.15, 19.95),
        (105.85, 20.0),
        (105.6, 20.3),
        (105.4, 20.7),
    ],
    "Thanh Hoa plain": [
        (105.45, 20.05),
        (105.9, 20.1),
        (106.05, 19.8),
        (105.8, 19.3),
        (105.55, 19.4),
        (105.45, 19.75),
    ],
    "Nghe Tinh plain": [
        (105.4, 19.1),
        (105.8, 19.2),
        (106.0, 18.7),
        (106.1, 18.3),
        (105.85, 18.2),
        (105.55, 18.5),
        (105.4, 18.8),
    ],
    "Mekong Delta": [
        (104.4, 10.5),
        (105.1, 10.95),
        (105.9, 11.0),
        (106.3, 10.75),
        (106.8, 10.45),
        (106.8, 9.5),
        (105.5, 8.4),
        (104.6, 8.4),
        (104.4, 9.5),
    ],
    "Cambodian lower Mekong": [
        (104.6, 11.0),
        (104.75, 11.8),
        (105.3, 12.1),
        (105.7, 11.95),
        (105.9, 11.45),
        (106.1, 11.1),
        (105.85, 10.9),
        (105.1, 10.9),
        (104.7, 10.7),
    ],
    "Saigon plain": [
        (105.95, 11.4),
        (106.2, 11.35),
        (106.35, 11.1),
        (106.6, 11.0),
        (106.9, 11.0),
        (107.1, 10.85),
        (106.85, 10.6),
        (106.4, 10.55),
        (106.2, 10.8),
        (105.95, 11.1),
    ],
}
# width (hexes from the sea) of the cultivated coastal plain of Vietnam, by latitude band
COAST_PLAIN = [(20.5, 22.5, 1), (17.0, 20.5, 2), (13.0, 17.0, 2), (10.0, 13.0, 1)]
PLATEAUS = {  # open plateaus the digest wants clear even where the relief proxy is high (checked before it)
    "Kontum-Pleiku plateau": [(107.65, 14.5), (108.15, 14.5), (108.2, 13.6), (107.6, 13.6)],
    "Darlac plateau": [(107.8, 13.0), (108.35, 13.0), (108.4, 12.45), (107.8, 12.45)],
    "Bolovens Plateau": [(105.95, 15.45), (106.5, 15.45), (106.5, 15.0), (105.95, 15.0)],
}
CLEAR = {
    "Laotian Mekong plain": [
        (104.0, 17.6),
        (105.0, 17.6),
        (105.35, 16.9),
        (105.4, 16.2),
        (105.7, 15.6),
        (105.75, 15.0),
        (105.6, 14.2),
        (104.0, 14.2),
    ],
    "Laotian Mekong lowland (Bolikhamxai)": [
        (104.0, 18.45),
        (104.35, 18.35),
        (104.75, 17.95),
        (105.0, 17.6),
        (104.0, 17.6),
    ],
    "Cambodian northern plain": [
        (104.0, 14.4),
        (105.5, 14.4),
        (105.9, 13.5),
        (105.95, 12.6),
        (105.5, 12.1),
        (104.75, 11.8),
        (104.4, 11.5),
        (104.0, 11.5),
    ],
}
JUNGLE = {
    "Vietnamese midlands (north of the delta)": [
        (105.0, 21.3),
        (105.3, 21.9),
        (106.0, 21.95),
        (106.7, 21.6),
        (106.75, 21.2),
        (106.2, 21.4),
        (105.75, 21.5),
        (105.3, 21.3),
    ],
}

# --------------------------------------------------------------------------- areas (R-MAP-06 to R-MAP-10)
# Corps lines as (lon, lat) polylines; the latitude of the line at a hex's longitude decides the side.
I_II_LINE = [(107.3, 15.25), (107.8, 15.2), (108.2, 15.0), (108.55, 14.65), (108.9, 14.55), (109.3, 14.5)]
II_III_LINE = [
    (106.4, 12.25),
    (106.9, 12.1),
    (107.3, 11.75),
    (107.6, 11.35),
    (107.85, 11.05),
    (108.05, 10.85),
]
III_IV_LINE = [(105.9, 11.0), (106.2, 10.85), (106.35, 10.5), (106.5, 10.42), (106.78, 10.42)]
III_IV_EAST_LON = 106.78  # east of the Soai Rap mouth everything is III Corps (Vung Tau, Rung Sat)
CMD_BOX = (106.58, 10.68, 106.80, 10.90)  # Saigon and Gia Dinh (lon0, lat0, lon1, lat1)
ZONES = {  # digest 5.3 bounds (lon0, lat0, lon1, lat1), South Vietnamese land hexes only
    "War Zone C": (105.8, 11.3, 106.5, 11.95),
    "War Zone D": (106.8, 11.0, 107.3, 11.5),
    "Iron Triangle": (106.5, 11.05, 106.65, 11.2),
}
ZONE_CENTRES = {"War Zone C": "war_zone_c", "War Zone D": "war_zone_d", "Iron Triangle": "iron_triangle"}

# --------------------------------------------------------------------------- the Ho Chi Minh Trail (R-MAP-09)
# Way points north to south: place ids or (lat, lon).  Branches join at Tchepone.  The path may not use
# South Vietnamese hexes (the trail runs outside the South, 14.6.3).
TRAIL = [
    (
        "HCM Trail: Vinh - Mu Gia Pass",
        ["vinh", (18.25, 105.78), (17.95, 105.8), "mu_gia_pass", (17.35, 105.85), (17.0, 106.0), "tchepone"],
    ),
    (
        "HCM Trail: Dong Hoi - Ban Karai Pass",
        ["dong_hoi", (17.35, 106.35), "ban_karai_pass", (16.95, 106.15), "tchepone"],
    ),
    (
        "HCM Trail: Tchepone - tri-border",
        ["tchepone", (16.45, 106.55), "ba_611", "chavane", (15.3, 107.2), "ba_609"],
    ),
    (
        "HCM Trail: tri-border - Fishhook (Sihanouk Trail)",
        [
            "ba_609",
            (14.2, 107.3),
            "banlung",
            (13.3, 107.1),
            (12.8, 107.25),
            (12.45, 107.15),
            (12.25, 106.8),
            "snuol",
            "mimot",
        ],
    ),
]

# --------------------------------------------------------------------------- roads (digest 5.3, R-MAP-13)
ROADS = [
    (
        "ql1_north",
        "QL1 (Lang Son - Hanoi - Vinh - DMZ)",
        [
            "lang_son",
            (21.45, 106.4),
            "hanoi",
            "ninh_binh",
            "thanh_hoa",
            "vinh",
            "ha_tinh",
            (17.95, 106.3),
            "dong_hoi",
            (17.2, 106.85),
            "vinh_linh",
        ],
    ),
    (
        "ql1_south",
        "QL1 (DMZ - Hue - Da Nang - Qui Nhon)",
        [
            "vinh_linh",
            "gio_linh",
            "dong_ha",
            "quang_tri",
            "hue",
            "phu_bai",
            "hai_van_pass",
            "da_nang",
            "tam_ky",
            "chu_lai",
            "quang_ngai",
            "bong_son",
            "qui_nhon",
        ],
    ),
    (
        "ql1_coast",
        "QL1 (Qui Nhon - Nha Trang - Saigon)",
        [
            "qui_nhon",
            "tuy_hoa",
            (12.85, 109.35),
            "nha_trang",
            "cam_ranh",
            "phan_rang",
            (11.2, 108.55),
            "phan_thiet",
            (10.98, 107.7),
            "xuan_loc",
            "bien_hoa",
            "saigon",
        ],
    ),
    (
        "ql1_cambodia",
        "QL1 (Saigon - Phnom Penh)",
        ["saigon", "cu_chi", (11.08, 106.26), "svay_rieng", "neak_luong", "phnom_penh"],
    ),
    (
        "ql4",
        "QL4 (Saigon - Mekong Delta - Ca Mau)",
        ["saigon", "tan_an", "my_tho", "vinh_long", "can_tho", "soc_trang", "bac_lieu", "ca_mau"],
    ),
    (
        "ql9",
        "QL9 / Route 9 (Dong Ha - Khe Sanh - Savannakhet)",
        [
            "dong_ha",
            "camp_carroll",
            "the_rockpile",
            "khe_sanh_combat_base",
            "lang_vei",
            "tchepone",
            "muang_phin",
            "savannakhet",
        ],
    ),
    (
        "ql19",
        "QL19 (Qui Nhon - Pleiku - Cambodia)",
        ["qui_nhon", "an_khe", "mang_yang_pass", "pleiku", "duc_co", (13.75, 107.45)],
    ),
    (
        "ql14",
        "QL14 (Dak To - Pleiku - Ban Me Thuot - Bien Hoa)",
        [
            "dak_to",
            "kontum",
            "pleiku",
            (13.25, 108.2),
            "ban_me_thuot",
            "gia_nghia",
            "dong_xoai",
            (11.2, 106.85),
            "bien_hoa",
        ],
    ),
    (
        "ql13",
        "QL13 (Saigon - An Loc - Kratie)",
        ["saigon", "thu_dau_mot", "ben_cat", "lai_khe", "an_loc", "loc_ninh", "snuol", "kratie"],
    ),
    ("ql21", "QL21 (Ninh Hoa - Ban Me Thuot)", [(12.49, 109.13), (12.7, 108.6), "ban_me_thuot"]),
    ("ql21_link", "QL1 link (Ninh Hoa - Nha Trang)", [(12.49, 109.13), "nha_trang"]),
    (
        "ql20",
        "QL20 (Bien Hoa - Bao Loc - Da Lat)",
        ["xuan_loc", (11.15, 107.35), "bao_loc", (11.7, 108.2), "da_lat"],
    ),
    ("ql11", "QL11 (Phan Rang - Da Lat)", ["phan_rang", (11.8, 108.7), "da_lat"]),
    ("ql22", "QL22 (Go Dau Ha - Tay Ninh - Xa Mat)", [(11.08, 106.26), "tay_ninh", (11.72, 105.99)]),
    ("ql15", "QL15 (Bien Hoa - Ba Ria - Vung Tau)", ["bien_hoa", (10.75, 107.0), "ba_ria", "vung_tau"]),
    ("route7b", "Route 7B (Pleiku - Cheo Reo - Tuy Hoa)", ["pleiku", "cheo_reo", (13.15, 108.9), "tuy_hoa"]),
    (
        "laos13",
        "Route 13 (Laos: Thakhek - Savannakhet - Pakse)",
        ["thakhek", "savannakhet", (16.2, 105.2), (15.75, 105.7), "pakse"],
    ),
    ("laos12", "Route 12 (Laos: Thakhek - Mahaxay - Mu Gia)", ["thakhek", "mahaxay", "mu_gia_pass"]),
    (
        "cambodia7",
        "Route 7 (Cambodia: Kampong Cham - Snuol)",
        ["kampong_cham", (11.9, 105.85), "mimot", "snuol"],
    ),
    ("ql5", "Route 5 (Hanoi - Haiphong)", ["hanoi", "haiphong"]),
    # not in the digest's list: the roads that tie the PRC sources and the northern towns to Hanoi, and the
    # Bolovens road (our additions, R-MAP-13)
    (
        "ql2",
        "QL2 / QL70 (Hanoi - Yen Bai - Lao Cai)",
        ["hanoi", "son_tay", (21.3, 105.4), "yen_bai", (22.1, 104.4), "lao_cai"],
    ),
    ("ql3", "QL3 (Hanoi - Thai Nguyen - Cao Bang)", ["hanoi", "thai_nguyen", (22.1, 105.95), "cao_bang"]),
    ("ql6", "QL6 (Hanoi - Hoa Binh)", ["hanoi", "hoa_binh"]),
    ("ql18", "QL18 (Haiphong - Hon Gai)", ["haiphong", "hon_gai"]),
    ("laos23", "Route 23 (Laos: Pakse - Paksong - Attapeu)", ["pakse", "paksong", "attapeu"]),
]

# --------------------------------------------------------------------------- rivers (digest 5.3, R-MAP-14)
# (lat, lon) way points, downstream first.  The Mekong and the Bassac come from data/geo/rivers.geojson;
# the Ben Hai is the hand-drawn DMZ line of data/geo/borders.geojson east of 106.55 E.
RIVERS = [
    ("Ma", [(19.77, 105.92), (19.84, 105.8), (19.95, 105.6), (20.1, 105.35), (20.3, 105.1)]),
    ("Ca (Lam)", [(18.77, 105.77), (18.75, 105.6), (18.85, 105.45), (19.05, 105.1), (19.2, 104.8)]),
    (
        "Black River (Da)",
        [(21.3, 105.43), (21.1, 105.3), (20.82, 105.34), (21.0, 104.95), (21.2, 104.5), (21.4, 104.05)],
    ),
    (
        "Red River",
        [
            (20.25, 106.55),
            (20.45, 106.3),
            (20.7, 106.05),
            (21.04, 105.87),
            (21.25, 105.45),
            (21.45, 105.15),
            (21.72, 104.9),
            (22.1, 104.35),
            (22.49, 103.97),
        ],
    ),
    ("Thach Han", [(16.86, 107.15), (16.75, 107.2), (16.6, 107.05), (16.45, 106.95)]),
    ("Perfume (Huong)", [(16.56, 107.63), (16.46, 107.58), (16.3, 107.5), (16.15, 107.45)]),
    ("Thu Bon", [(15.88, 108.35), (15.85, 108.15), (15.75, 107.95), (15.6, 107.85)]),
    (
        "Song Ba",
        [(13.08, 109.32), (13.15, 109.05), (13.3, 108.6), (13.4, 108.43), (13.75, 108.45), (14.0, 108.55)],
    ),
    (
        "Dong Nai",
        [(10.55, 106.8), (10.75, 106.77), (10.95, 106.83), (11.1, 107.0), (11.3, 107.3), (11.5, 107.6)],
    ),
    ("Saigon River", [(10.75, 106.72), (10.98, 106.62), (11.2, 106.5), (11.4, 106.4), (11.65, 106.35)]),
    ("Vam Co Dong", [(10.5, 106.65), (10.7, 106.45), (10.95, 106.3), (11.25, 106.1)]),
    ("Vam Co Tay", [(10.55, 106.45), (10.7, 106.2), (10.85, 105.95)]),
    (
        "Se Kong",
        [
            (13.53, 105.97),
            (14.0, 106.25),
            (14.4, 106.5),
            (14.81, 106.83),
            (15.3, 106.9),
            (15.7, 106.95),
            (16.05, 107.0),
        ],
    ),
    ("Se San", [(13.55, 106.0), (13.75, 106.5), (13.85, 107.0), (14.05, 107.5), (14.3, 107.8)]),
    ("Srepok", [(13.52, 106.15), (13.15, 106.75), (12.85, 107.3), (12.65, 107.75), (12.6, 108.05)]),
]
BEN_HAI_WEST_LON = 106.55
MEKONG_BORDER_SOUTH_Y = to_xy(105.5, 15.3)[1]  # the Mekong is the Laos-Thailand border north of about 15.3 N
RIVER_PENALTY = 6.0  # extra path cost for a road crossing a river hexside (roads keep to one bank)


# =========================================================================== helpers
def polygon_contains(poly: list[tuple[float, float]], lon: float, lat: float) -> bool:
    """Even-odd ray casting for one ring of (lon, lat) vertices."""
    inside = False
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if (y1 > lat) != (y2 > lat) and lon < (x2 - x1) * (lat - y1) / (y2 - y1) + x1:
            inside = not inside
    return inside


def line_lat(line: list[tuple[float, float]], lon: float) -> float:
    """Latitude of a west-to-east polyline at ``lon`` (held level beyond its ends)."""
    if lon <= line[0][0]:
        return line[0][1]
    for (x1, y1), (x2, y2) in zip(line, line[1:], strict=False):
        if lon <= x2:
            return y1 + (y2 - y1) * (lon - x1) / (x2 - x1)
    return line[-1][1]


def read_places(txt: str) -> list[dict]:
    out = []
    for ln in txt.strip().splitlines():
        pid, name, lat, lon, country, area, kind, dkind, role = ln.split("|")
        out.append(
            dict(
                id=pid,
                name=name,
                lat=float(lat),
                lon=float(lon),
                country=country,
                area=area,
                kind=kind,
                dkind=dkind,
                role=role,
            )
        )
    return out


def geom_polys(geom: dict) -> list[list[list[list[float]]]]:
    return [geom["coordinates"]] if geom["type"] == "Polygon" else geom["coordinates"]


class Raster:
    """Land and country masks at RASTER_DEG, drawn with Pillow (holes erased)."""

    def __init__(self) -> None:
        lon0, lat0, lon1, lat1 = BOX
        self.w, self.h = round((lon1 - lon0) / RASTER_DEG), round((lat1 - lat0) / RASTER_DEG)
        land = Image.new("L", (self.w, self.h), 0)
        dl = ImageDraw.Draw(land)
        for f in json.loads((GEO / "land.geojson").read_text())["features"]:
            for poly in geom_polys(f["geometry"]):
                dl.polygon(self.px(poly[0]), fill=1)
                for hole in poly[1:]:
                    dl.polygon(self.px(hole), fill=0)
        cty = Image.new("L", (self.w, self.h), 0)
        dc = ImageDraw.Draw(cty)
        for f in json.loads((GEO / "countries.geojson").read_text())["features"]:
            code = COUNTRY_CODES.index(f["properties"]["id"]) + 1
            for poly in geom_polys(f["geometry"]):
                dc.polygon(self.px(poly[0]), fill=code)
                for hole in poly[1:]:
                    dc.polygon(self.px(hole), fill=0)
        self.land = np.asarray(land)
        self.cty = np.asarray(cty)

    def px(self, ring):
        return [((x - BOX[0]) / RASTER_DEG, (BOX[3] - y) / RASTER_DEG) for x, y in ring]

    def sample(self, lons: np.ndarray, lats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        i = np.clip(((lons - BOX[0]) / RASTER_DEG).astype(int), 0, self.w - 1)
        j = np.clip(((BOX[3] - lats) / RASTER_DEG).astype(int), 0, self.h - 1)
        return self.land[j, i], self.cty[j, i]


def sample_offsets(step: float = 2.0) -> list[tuple[float, float]]:
    """A triangular lattice of points inside one hexagon (flat top), centre included."""
    pts = []
    for j in range(-4, 5):
        y = j * step * math.sqrt(3) / 2
        for i in range(-4, 5):
            x = (i + (0.5 if j % 2 else 0.0)) * step
            if (
                abs(y) <= RADIUS_MI * math.sqrt(3) / 2 - 0.3
                and math.sqrt(3) * abs(x) + abs(y) <= RADIUS_MI * math.sqrt(3) - 0.3
            ):
                pts.append((x, y))
    return pts


class YotrRelief:
    """Year of the Rat's ETOPO1-derived rough/clear hexes as a relief proxy: nearest YotR hex centre wins."""

    def __init__(self) -> None:
        self.buckets: dict[tuple[int, int], list[tuple[float, float, str]]] = defaultdict(list)
        with YOTR_HEXES.open(newline="", encoding="utf-8") as fh:
            for r in csv.DictReader(fh):
                lat, lon = float(r["lat"]), float(r["lon"])
                self.buckets[(int(lat * 10), int(lon * 10))].append((lat, lon, r["terrain"]))

    def at(self, lon: float, lat: float) -> str | None:
        bi, bj = int(lat * 10), int(lon * 10)
        best, bd = None, 1e9
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                for la, lo, t in self.buckets.get((bi + di, bj + dj), ()):
                    d = ((la - lat) * 110.6) ** 2 + ((lo - lon) * 111.32 * math.cos(math.radians(lat))) ** 2
                    if d < bd:
                        best, bd = t, d
        return best if bd <= 6.0**2 else None  # within ~6 km of a YotR centre (its hexes are 10 km)


# =========================================================================== build
class Map:
    """The built map (attributes set by ``build``)."""


def build() -> Map:
    M = Map()
    g = grid()
    cells = list(g.hexes())
    ras = Raster()
    offs = sample_offsets()
    relief = YotrRelief()
    places = read_places(PLACES_TXT) + read_places(EXTRA_PLACES_TXT)
    pl = {p["id"]: p for p in places}
    M.places = places

    # ---- land, country, sample votes (R-MAP-02, R-MAP-03)
    land_frac, votes, rough, covered, lonlat = {}, {}, {}, {}, {}
    for h in cells:
        cx, cy = centre_xy(*parse_hex(h))
        pts = [to_lonlat(cx + dx, cy + dy) for dx, dy in offs]
        lons = np.array([p[0] for p in pts])
        lats = np.array([p[1] for p in pts])
        lnd, cty = ras.sample(lons, lats)
        land_frac[h] = float(lnd.mean())
        v = defaultdict(int)
        for is_land, c in zip(lnd, cty, strict=True):
            if is_land:
                v[COUNTRY_CODES[c - 1] if c else "CHN"] += 1
        votes[h] = v
        lonlat[h] = to_lonlat(cx, cy)
        if lonlat[h][1] < RELIEF_NORTH:
            rel = [relief.at(lo, la) for lo, la, il in zip(lons, lats, lnd, strict=True) if il]
            known = [t for t in rel if t is not None]
            covered[h] = len(known) / max(1, len(rel))
            rough[h] = sum(t == "rough" for t in known) / max(1, len(known))
    place_hex = {p["id"]: hex_at(p["lon"], p["lat"]) for p in places}
    for p in places:  # off-map places, and the off-map boxes, have no hex
        if p["area"] in ("off-map", "box"):
            place_hex[p["id"]] = None
    forced_land = {place_hex[p["id"]] for p in places if place_hex[p["id"]] and p["kind"] != "box"}
    is_land = {h: land_frac[h] >= LAND_MIN or (h in forced_land and land_frac[h] > 0) for h in cells}
    for h in forced_land:
        if not is_land[h]:
            raise SystemExit(f"a place lies in hex {h}, which has no land at all")
    # sea = water hexes joined to the map edge through water; inland water (Tonle Sap) stays land (R-MAP-02)
    water = {h for h in cells if not is_land[h]}
    sea, todo = (
        set(),
        deque(h for h in water if (lambda c, r: c in (1, COLS) or r in (1, ROWS))(*parse_hex(h))),
    )
    sea.update(todo)
    while todo:
        h = todo.popleft()
        for n in g.neighbours(h):
            if n in water and n not in sea:
                sea.add(n)
                todo.append(n)
    lake = water - sea
    land = set(cells) - sea
    country = {}
    why_country = {}
    for h in sorted(land):
        v = votes[h]
        if v:
            country[h] = max(sorted(v), key=lambda c: v[c])
            why_country[h] = "majority"
        else:  # inland water without a land point: the commonest country among the hexes around it
            around = defaultdict(int)
            for n in g.neighbours(h):
                for c, k in votes[n].items():
                    around[c] += k
            country[h] = max(sorted(around), key=lambda c: around[c])
            why_country[h] = "its neighbours (inland water)"
    # a place of a known country forces its hex to that country when some of the hex is in it (R-MAP-03)
    for p in places:
        h = place_hex[p["id"]]
        if h and p["country"] in COUNTRY_CODES and country.get(h) != p["country"]:
            if votes[h].get(p["country"], 0) == 0:
                raise SystemExit(
                    f"{p['name']} ({p['country']}) lies in hex {h}, which has no {p['country']} land"
                )
            print(f"  country of {h}: {country[h]} -> {p['country']} (holds {p['name']})")
            country[h] = p["country"]
            why_country[h] = f"holds {p['name']}"
    coastal = {h for h in land if any(n in sea for n in g.neighbours(h))}
    M.sea, M.land, M.lake, M.coastal, M.country, M.land_frac = sea, land, lake, coastal, country, land_frac

    # ---- sea distance (for the coastal plain)
    dist_sea = {h: 0 for h in sea}
    todo = deque(sorted(sea))
    while todo:
        h = todo.popleft()
        for n in g.neighbours(h):
            if n not in dist_sea:
                dist_sea[n] = dist_sea[h] + 1
                todo.append(n)

    # ---- rivers (needed by the terrain rule of the Mekong valley and by roads)
    anchor = {}
    for p in sorted(places, key=lambda p: p["id"]):
        if p["kind"] in ("city", "town") and place_hex[p["id"]]:
            anchor.setdefault(place_hex[p["id"]], to_xy(p["lon"], p["lat"]))
    river_side = trace_rivers(g, land, country, anchor)
    M.river_side = river_side
    mekong_hexes = {h for s, name in river_side.items() if name == "Mekong" for h in s}

    # ---- terrain (R-MAP-04) and corrections (R-MAP-05)
    terrain, why = {}, {}

    def inside(table, h):
        lo, la = lonlat[h]
        for name, poly in table.items():
            if polygon_contains(poly, lo, la):
                return name
        return None

    for h in sorted(land):
        lo, la = lonlat[h]
        c = country[h]
        hainan = c == "CHN" and la < 20.3 and lo > 108.4
        if h in lake or (n := inside(SWAMPS, h)):
            terrain[h], why[h] = (
                "swamp",
                (
                    "swamp: inland water (lake shore and flood plain)"
                    if h in lake
                    else f"swamp: {n} (hand-drawn area)"
                ),
            )
        elif n := inside(PLATEAUS, h):
            terrain[h], why[h] = "clear", f"clear: {n} (open plateau, digest 5.3)"
        elif covered.get(h, 0) >= 0.5 and rough[h] >= ROUGH_SHARE:
            terrain[h], why[h] = (
                "mountain",
                f"mountain: relief proxy, {rough[h]:.0%} of the hex rough on YotR's ETOPO1 map",
            )
        elif n := inside(MOUNTAINS, h):
            terrain[h], why[h] = "mountain", f"mountain: {n} (hand-drawn range)"
        elif n := inside(CULTIVATED, h):
            terrain[h], why[h] = "cultivated", f"cultivated: {n} (hand-drawn lowland)"
        elif h in mekong_hexes and c in ("LAO", "THA", "KHM"):
            terrain[h], why[h] = "cultivated", "cultivated: rice land on the Mekong banks"
        elif c in ("NVN", "SVN") and any(a <= la < b and dist_sea[h] <= w for a, b, w in COAST_PLAIN):
            terrain[h], why[h] = "cultivated", f"cultivated: coastal plain ({dist_sea[h]} hex from the sea)"
        elif hainan and h in coastal:
            terrain[h], why[h] = "cultivated", "cultivated: Hainan coastal plain"
        elif n := inside(CLEAR, h):
            terrain[h], why[h] = "clear", f"clear: {n} (hand-drawn open country)"
        elif n := inside(JUNGLE, h):
            terrain[h], why[h] = "jungle", f"jungle: {n} (hand-drawn hill country)"
        elif c == "THA":
            terrain[h], why[h] = "clear", "clear: Khorat plateau (Thailand)"
        elif hainan:
            terrain[h], why[h] = "jungle", "jungle: Hainan interior"
        elif la >= RELIEF_NORTH and c in ("NVN", "LAO", "CHN"):
            terrain[h], why[h] = "mountain", "mountain: northern highlands"
        elif covered.get(h, 0) >= 0.5:
            terrain[h], why[h] = (
                "jungle",
                f"jungle: forested lowland or plateau ({rough[h]:.0%} rough on the relief proxy)",
            )
        else:
            terrain[h], why[h] = "jungle", "jungle: default for the forested south"
    for h in sea:
        terrain[h], why[h] = "sea", "sea: all-sea hex (GSHHG land under 25%)"
    corrections = read_corrections()
    for line, (h, t, reason) in enumerate(corrections, start=2):
        if h not in land:
            raise SystemExit(f"terrain_corrections.csv line {line}: {h} is not a land hex")
        why[h] = f"{t}: corrected (terrain_corrections.csv: {reason}; was {terrain[h]})"
        terrain[h] = t
    M.terrain, M.why = terrain, why

    # ---- DMZ (R-MAP-06): per column, the land hex whose centre is nearest to the demarcation line
    dmz_line = next(
        f["geometry"]["coordinates"]
        for f in json.loads((GEO / "borders.geojson").read_text())["features"]
        if f["properties"]["kind"] == "dmz"
    )
    dmz_xy = [to_xy(lo, la) for lo, la in dmz_line]
    xs = [p[0] for p in dmz_xy]
    dmz = set()
    for c in range(1, COLS + 1):
        x = c * COL_MI
        if not min(xs) - COL_MI / 2 <= x <= max(xs) + COL_MI / 2:
            continue
        best = min(
            (h for h in land if parse_hex(h)[0] == c and country[h] in ("NVN", "SVN")),
            key=lambda h: seg_dist(centre_xy(*parse_hex(h)), dmz_xy),
            default=None,
        )
        if best is not None and seg_dist(centre_xy(*parse_hex(best)), dmz_xy) <= HEX_MI / 2 + 0.5:
            dmz.add(best)
    M.dmz = dmz

    # ---- areas (R-MAP-07)
    area, why_area = {}, {}
    for h in sorted(land):
        lo, la = lonlat[h]
        c = country[h]
        if h in dmz:
            area[h], why_area[h] = "DMZ", "DMZ row on the Ben Hai"
        elif c == "SVN":
            if CMD_BOX[0] <= lo <= CMD_BOX[2] and CMD_BOX[1] <= la <= CMD_BOX[3]:
                area[h], why_area[h] = "CMD", "Saigon and Gia Dinh box"
            elif la > line_lat(I_II_LINE, lo):
                area[h], why_area[h] = "I Corps", "north of the I/II Corps line"
            elif la > line_lat(II_III_LINE, lo):
                area[h], why_area[h] = "II Corps", "between the I/II and II/III Corps lines"
            elif la < line_lat(III_IV_LINE, lo) and lo < III_IV_EAST_LON:
                area[h], why_area[h] = "IV Corps", "south of the III/IV Corps line"
            else:
                area[h], why_area[h] = "III Corps", "between the II/III and III/IV Corps lines"
        else:
            area[h] = {
                "NVN": "North Vietnam",
                "LAO": "Laos",
                "KHM": "Cambodia",
                "CHN": "China",
                "THA": "Thailand",
            }[c]
            why_area[h] = "country"
    # a South Vietnamese town or base forces its hex into the area the digest gives it (R-MAP-07)
    for p in places:
        h = place_hex[p["id"]]
        if (
            h
            and p["country"] == "SVN"
            and p["kind"] in ("city", "town", "base")
            and area[h] != p["area"]
            and h not in dmz
        ):
            print(f"  area of {h}: {area[h]} -> {p['area']} (holds {p['name']})")
            area[h], why_area[h] = p["area"], f"holds {p['name']}"
    for h in sea:
        area[h], why_area[h] = "sea", "sea"
    M.area = area

    # ---- zones (R-MAP-08)
    zone = {}
    for name, (lo0, la0, lo1, la1) in ZONES.items():
        members = {
            h
            for h in land
            if country[h] == "SVN"
            and area[h] != "CMD"
            and lo0 <= lonlat[h][0] <= lo1
            and la0 <= lonlat[h][1] <= la1
        }
        members.add(place_hex[ZONE_CENTRES[name]])
        for h in members:
            if h in zone:
                raise SystemExit(f"hex {h} is in both {zone[h]} and {name}")
            zone[h] = name
    M.zone = zone

    # ---- places: hexes and their roles (R-MAP-11, R-MAP-16)
    M.place_hex = place_hex
    supply_of = {pid: nat for nat, ids in SUPPLY.items() for pid in ids}
    for p in places:
        p["hex"] = place_hex[p["id"]]
        p["supply"] = (
            "hcm_terminus" if p["id"] in TERMINI and p["id"] not in supply_of else supply_of.get(p["id"])
        )
        p["terminus"] = TERMINI.get(p["id"])
        p["text_hex"] = TEXT_HEX.get(p["id"])
        p["recruit_draws"] = {"city": 2, "town": 1}.get(p["kind"], 0) if p["country"] == "SVN" else 0
    for nat, ids in SUPPLY.items():
        for pid in ids:
            if pid not in pl or not place_hex[pid]:
                raise SystemExit(f"supply source {pid} ({nat}) is not an on-map place")

    # ---- the trail (R-MAP-09) and the roads (R-MAP-13)
    def point(wp):
        if isinstance(wp, str):
            return centre_xy(*parse_hex(place_hex[wp]))
        return to_xy(wp[1], wp[0])

    trail_ok = {h for h in land if country[h] in ("NVN", "LAO", "KHM")}
    road_ok = {h for h in land if country[h] != "THA"}  # no road of the game runs through Thailand
    chains: dict[str, tuple[str, str, list[str], list]] = {}
    for name, wps in TRAIL:
        chain = hex_chain(g, [point(w) for w in wps], trail_ok, river_side)
        chains[name] = ("trail", name, chain, wps)
    for rid, name, wps in ROADS:
        chain = hex_chain(g, [point(w) for w in wps], road_ok, river_side)
        chains[rid] = ("road", name, chain, wps)
    M.chains = chains
    trail_hexes = {h for kind, _, ch, _ in chains.values() if kind == "trail" for h in ch}
    for pid in TERMINI:
        if place_hex[pid] not in trail_hexes:
            raise SystemExit(f"trail terminus {pid} (hex {place_hex[pid]}) is not on the trail")
    M.trail = trail_hexes

    # ---- Free Deployment Zone (R-MAP-10): Laotian/Cambodian hexes east of the trail, up to the Vietnamese border
    fdz = set()
    for r in range(1, ROWS + 1):
        row = [hex_id(c, r) for c in range(1, COLS + 1)]
        t_cols = [i for i, h in enumerate(row) if h in trail_hexes and country.get(h) in ("LAO", "KHM")]
        if not t_cols:
            continue
        for h in row[max(t_cols) + 1 :]:
            if h not in land or country[h] not in ("LAO", "KHM"):
                break
            if h not in trail_hexes:
                fdz.add(h)
    M.fdz = fdz

    # ---- stations (R-MAP-12)
    M.station = {h: ("Yankee" if lonlat[h][1] >= STATION_LAT else "Dixie") for h in sea | coastal}
    M.lonlat, M.cells, M.grid = lonlat, cells, g
    M.why_country, M.why_area = why_country, why_area
    return M


def seg_dist(pt, pts) -> float:
    best = 1e9
    for p, q in zip(pts, pts[1:], strict=False):
        px, py = q[0] - p[0], q[1] - p[1]
        L2 = px * px + py * py
        t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((pt[0] - p[0]) * px + (pt[1] - p[1]) * py) / L2))
        best = min(best, math.dist(pt, (p[0] + t * px, p[1] + t * py)))
    return best


def hex_chain(g, pts, allowed: set[str], river_side: dict) -> list[str]:
    """Hexes joined edge to edge through the way points: per leg the cheapest path where a step costs 1
    plus the square of its distance (in hexes) from the straight leg plus RIVER_PENALTY across a river,
    never back through a hex an earlier leg used (so every way point stays on the route)."""
    chain: list[str] = []
    for p, q in zip(pts, pts[1:], strict=False):
        start, goal = hex_id(*hex_at_xy(*p)), hex_id(*hex_at_xy(*q))
        used = set(chain[:-1])  # a leg may not go back through hexes the route already passed (no loops)
        for end in (start, goal):
            if end not in allowed:
                raise SystemExit(f"way point hex {end} cannot carry this route (sea or a forbidden country)")
        best, prev = {start: 0.0}, {start: None}
        heap = [(0.0, 0.0, start)]
        while heap:
            _, d, u = heapq.heappop(heap)
            if u == goal:
                break
            if d > best[u]:
                continue
            for v in g.neighbours(u):
                if v not in allowed or v in used:
                    continue
                dev = seg_dist(centre_xy(*parse_hex(v)), [p, q]) / HEX_MI
                cost = d + 1.0 + dev * dev + (RIVER_PENALTY if hexside(u, v) in river_side else 0.0)
                if cost < best.get(v, math.inf):
                    best[v], prev[v] = cost, u
                    heapq.heappush(heap, (cost + g.distance(v, goal), cost, v))
        if goal not in prev:
            raise SystemExit(f"no path between hexes {start} and {goal}")
        leg = [goal]
        while prev[leg[-1]] is not None:
            leg.append(prev[leg[-1]])
        leg.reverse()
        chain += leg if not chain else leg[1:]
    return chain


def _crosses(p1, p2, q1, q2) -> bool:
    """Whether segment p1-p2 properly crosses segment q1-q2."""

    def side(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2 = side(q1, q2, p1), side(q1, q2, p2)
    d3, d4 = side(p1, p2, q1), side(p1, p2, q2)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0)


def river_sides(
    g, line_xy: list[tuple[float, float]], anchor: dict[str, tuple[float, float]]
) -> set[tuple[str, str]]:
    """The hexsides a river line runs along: those between two hexes whose centres it separates (the segment
    joining the two centres crosses the line an odd number of times).  Consecutive sides share a hex corner,
    so a river is an unbroken chain of hex edges and each hex lies on the bank where its centre is; a town's
    hex counts from the town's real position instead (``anchor``), so the town keeps its real bank."""
    near: set[str] = set()
    for (x1, y1), (x2, y2) in zip(line_xy, line_xy[1:], strict=False):
        n = max(1, int(math.dist((x1, y1), (x2, y2)) / 2))
        for i in range(n + 1):
            c, r = hex_at_xy(x1 + (x2 - x1) * i / n, y1 + (y2 - y1) * i / n)
            if 1 <= c <= COLS and 1 <= r <= ROWS:
                near.add(hex_id(c, r))
    near |= {m for h in list(near) for m in g.neighbours(h)}
    segs = list(zip(line_xy, line_xy[1:], strict=False))
    out = set()
    for h in near:
        ch = anchor.get(h) or centre_xy(*parse_hex(h))
        for n in g.neighbours(h):
            if n not in near or n < h:
                continue
            cn = anchor.get(n) or centre_xy(*parse_hex(n))
            lo_x, hi_x = min(ch[0], cn[0]), max(ch[0], cn[0])
            lo_y, hi_y = min(ch[1], cn[1]), max(ch[1], cn[1])
            hits = sum(
                _crosses(ch, cn, a, b)
                for a, b in segs
                if not (
                    max(a[0], b[0]) < lo_x
                    or min(a[0], b[0]) > hi_x
                    or max(a[1], b[1]) < lo_y
                    or min(a[1], b[1]) > hi_y
                )
            )
            if hits % 2:
                out.add(hexside(h, n))
    return out


def trace_rivers(
    g, land: set[str], country: dict[str, str], anchor: dict[str, tuple[float, float]]
) -> dict[tuple[str, str], str]:
    """River hexsides by name (R-MAP-14).  Where the Mekong is the Laos-Thailand border (north of
    MEKONG_BORDER_SOUTH) its hexsides are the border hexsides, so every Lao river town stays on the Lao bank."""
    lines: list[tuple[str, list[tuple[float, float]]]] = []
    for f in json.loads((GEO / "rivers.geojson").read_text())["features"]:
        name = "Mekong" if f["properties"]["id"] == "mekong" else "Bassac"
        geom = f["geometry"]
        parts = geom["coordinates"] if geom["type"] == "MultiLineString" else [geom["coordinates"]]
        for part in parts:
            lines.append((name, [to_xy(lo, la) for lo, la in part]))
    for name, wps in RIVERS:
        lines.append((name, [to_xy(lo, la) for la, lo in wps]))
    dmz = next(
        f["geometry"]["coordinates"]
        for f in json.loads((GEO / "borders.geojson").read_text())["features"]
        if f["properties"]["kind"] == "dmz"
    )
    lines.append(("Ben Hai", [to_xy(lo, la) for lo, la in dmz if lo >= BEN_HAI_WEST_LON]))
    out: dict[tuple[str, str], str] = {}
    for name, xy in lines:
        for s in sorted(river_sides(g, xy, anchor)):
            if s[0] in land and s[1] in land:
                if name == "Mekong" and min(centre_xy(*parse_hex(h))[1] for h in s) <= MEKONG_BORDER_SOUTH_Y:
                    continue  # the border rule below
                out.setdefault(s, name)
    for h in sorted(land):
        for n in g.neighbours(h):
            if (
                n in land
                and {country[h], country[n]} == {"LAO", "THA"}
                and min(centre_xy(*parse_hex(h))[1], centre_xy(*parse_hex(n))[1]) <= MEKONG_BORDER_SOUTH_Y
            ):
                out.setdefault(hexside(h, n), "Mekong")
    return out


def read_corrections() -> list[tuple[str, str, str]]:
    path = OUT / "terrain_corrections.csv"
    with path.open(newline="", encoding="utf-8") as fh:
        return [(r["hex"], r["terrain"], r["reason"]) for r in csv.DictReader(fh)]


# =========================================================================== writing
def write_csv(path: Path, header: list[str], rows: list[list]) -> None:
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


BUILT = ("hexes.csv", "hexsides.csv", "places.csv", "roads.csv", "areas.csv", "features.geojson")


def _ll(x: float, y: float) -> list[float]:
    lo, la = to_lonlat(x, y)
    return [round(lo, 4), round(la, 4)]


def write_geojson(M: Map, out: Path) -> None:
    """features.geojson for GIS tools and the notebooks: places (real positions), roads and trail branches
    (through hex centres), rivers (along the hex edges they follow), each with its source."""
    feats = []
    for p in M.places:
        if p["hex"]:
            feats.append(
                {
                    "type": "Feature",
                    "geometry": {"type": "Point", "coordinates": [p["lon"], p["lat"]]},
                    "properties": {
                        "id": p["id"],
                        "name": p["name"],
                        "layer": "place",
                        "kind": p["kind"],
                        "hex": p["hex"],
                        "source": "reconstruction: digest 5.4 (R-MAP-16)",
                    },
                }
            )
    for key, (kind, name, chain, _) in M.chains.items():
        feats.append(
            {
                "type": "Feature",
                "geometry": {
                    "type": "LineString",
                    "coordinates": [_ll(*centre_xy(*parse_hex(h))) for h in chain],
                },
                "properties": {
                    "id": key,
                    "name": name,
                    "layer": kind,
                    "source": f"reconstruction: hex chain of roads.csv (R-MAP-{'09' if kind == 'trail' else '13'})",
                },
            }
        )
    by_river = defaultdict(list)
    for s, name in sorted(M.river_side.items()):
        ca = {(round(x, 3), round(y, 3)) for x, y in corners_xy(*parse_hex(s[0]))}
        shared = [c for c in corners_xy(*parse_hex(s[1])) if (round(c[0], 3), round(c[1], 3)) in ca]
        if len(shared) == 2:
            by_river[name].append([_ll(*shared[0]), _ll(*shared[1])])
    for name, segs in sorted(by_river.items()):
        feats.append(
            {
                "type": "Feature",
                "geometry": {"type": "MultiLineString", "coordinates": segs},
                "properties": {
                    "id": name.lower().split(" (")[0].replace(" ", "_"),
                    "name": name,
                    "layer": "river",
                    "source": "reconstruction: river hexsides of hexsides.csv (R-MAP-14)",
                },
            }
        )
    text = json.dumps(
        {"type": "FeatureCollection", "features": feats}, ensure_ascii=False, separators=(",", ":")
    )
    (out / "features.geojson").write_text(
        text.replace('},{"type":"Feature"', '},\n{"type":"Feature"') + "\n", encoding="utf-8"
    )


def write(M: Map, out: Path = OUT) -> None:
    """Write the five built files into ``out`` (``data/row/map`` by default)."""
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for h in M.cells:
        c, r = parse_hex(h)
        lo, la = M.lonlat[h]
        if h in M.sea:
            kind, cty, area = "sea", "sea", "sea"
            src = f"reconstruction: all-sea, land {M.land_frac[h]:.2f} (R-MAP-02, R-MAP-12)"
        else:
            kind = "coastal" if h in M.coastal else "land"
            cty, area = M.country[h], M.area[h]
            ids = (
                ["02", "03", "04"]
                + (["05"] if "corrected" in M.why[h] else [])
                + (["06"] if h in M.dmz else ["07"])
                + (["08"] if h in M.zone else [])
                + (["09"] if h in M.trail else [])
                + (["10"] if h in M.fdz else [])
                + (["12"] if h in M.coastal else [])
            )
            src = (
                f"reconstruction: land {M.land_frac[h]:.2f}; country by {M.why_country[h]}; {M.why[h]}; "
                f"area: {M.why_area[h]} ({' '.join('R-MAP-' + i for i in ids)})"
            )
        rows.append(
            [
                h,
                c,
                r,
                f"{lo:.4f}",
                f"{la:.4f}",
                kind,
                f"{M.land_frac[h]:.2f}",
                cty,
                area,
                M.terrain[h],
                M.zone.get(h, ""),
                int(h in M.fdz),
                int(h in M.trail),
                M.station.get(h, ""),
                src,
            ]
        )
    write_csv(
        out / "hexes.csv",
        [
            "hex",
            "col",
            "row",
            "lon",
            "lat",
            "kind",
            "land",
            "country",
            "area",
            "terrain",
            "zone",
            "fdz",
            "trail",
            "station",
            "source",
        ],
        rows,
    )

    side_rows = []
    seen: dict[tuple[tuple[str, str], str], str] = {}
    for kind, name, chain, _ in M.chains.values():
        for a, b in zip(chain, chain[1:], strict=False):
            s = hexside(a, b)
            seen.setdefault((s, kind), name)
    for (s, kind), name in seen.items():
        side_rows.append(
            [
                s[0],
                s[1],
                kind,
                name,
                f"reconstruction: {kind} '{name}' traced hex to hex through way points of the real route "
                f"(tools/build_row_map.py, digest 5.3, R-MAP-{'09' if kind == 'trail' else '13'})",
            ]
        )
    for s, name in M.river_side.items():
        if name == "Mekong" and {M.country[s[0]], M.country[s[1]]} == {"LAO", "THA"}:
            src = "reconstruction: a Laos-Thailand border hexside, where the Mekong is the border"
        elif name == "Ben Hai":
            src = (
                "reconstruction: hexes separated by the DMZ line of data/geo/borders.geojson east of 106.55 E"
            )
        elif name in ("Mekong", "Bassac"):
            src = "external: hexes separated by the GSHHG centre line (data/geo/rivers.geojson)"
        else:
            src = "reconstruction: hexes separated by way points of the real river (digest 5.3 list)"
        side_rows.append([s[0], s[1], "river", name, src + " (R-MAP-14)"])
    for (s, kind), name in seen.items():
        if kind == "road" and s in M.river_side:
            side_rows.append(
                [
                    s[0],
                    s[1],
                    "bridge",
                    f"{name} over the {M.river_side[s]}",
                    "reconstruction: a bridge wherever a road crosses a river hexside (R-MAP-14)",
                ]
            )
    g = M.grid
    for h in sorted(M.land):
        for n in g.neighbours(h):
            if n in M.land and h < n and M.country[h] != M.country[n]:
                pair = "/".join(sorted((M.country[h], M.country[n])))
                side_rows.append(
                    [
                        h,
                        n,
                        "border",
                        pair,
                        "reconstruction: hexside between hexes of two countries (R-MAP-03)",
                    ]
                )
    order = {"road": 0, "trail": 1, "river": 2, "bridge": 3, "border": 4}
    side_rows.sort(key=lambda r: (order[r[2]], r[3], r[0], r[1]))
    write_csv(out / "hexsides.csv", ["a", "b", "feature", "name", "source"], side_rows)

    prow = []
    for p in M.places:
        src = "reconstruction: position from general geographic knowledge (digest 5.4)"
        if p["id"] in ("ba_611", "chavane", "ba_609"):
            src = "reconstruction: trail terminus named in digest 5.3 (R-MAP-09); position approximate"
        if p["id"] == "kampot_edge":
            src = "reconstruction: Kampong Som (103.52 E) is west of the map; its supply source stands on the edge (R-MAP-11)"
        if p["supply"]:
            src += f"; supply source ({p['supply']}) per digest 5.3 (R-MAP-11)"
        if p["recruit_draws"]:
            src += "; recruit draws: rules 13.1.2 (city 2, town 1)"
        if p["text_hex"]:
            src += "; rules 14.7: the trail ends in hex 0970 of the printed map (R-MAP-09)"
        prow.append(
            [
                p["id"],
                p["name"],
                p["hex"] or "",
                f"{p['lat']:.2f}",
                f"{p['lon']:.2f}",
                p["country"],
                p["area"],
                p["kind"],
                p["recruit_draws"],
                p["supply"] or "",
                p["terminus"] or "",
                p["text_hex"] or "",
                p["role"],
                src,
            ]
        )
    write_csv(
        out / "places.csv",
        [
            "id",
            "name",
            "hex",
            "lat",
            "lon",
            "country",
            "area",
            "kind",
            "recruit_draws",
            "supply",
            "terminus",
            "text_hex",
            "role",
            "source",
        ],
        prow,
    )

    rrows = []
    for key, (kind, name, chain, wps) in M.chains.items():
        rid = (
            key
            if kind == "road"
            else "hcm_" + ["vinh", "dong_hoi", "laos", "cambodia"][[t[0] for t in TRAIL].index(name)]
        )
        wp = ";".join(w if isinstance(w, str) else f"{w[0]:.2f}N {w[1]:.2f}E" for w in wps)
        rrows.append(
            [
                rid,
                name,
                kind,
                wp,
                " ".join(chain),
                f"reconstruction: real route through named way points (digest {'3.18/5.3' if kind == 'trail' else '5.3'}; "
                f"R-MAP-{'09' if kind == 'trail' else '13'})",
            ]
        )
    write_csv(out / "roads.csv", ["id", "name", "kind", "waypoints", "hexes", "source"], rrows)

    count = defaultdict(int)
    for h in M.land:
        count[M.area[h]] += 1
    zc = defaultdict(int)
    for z in M.zone.values():
        zc[z] += 1
    st = defaultdict(int)
    for h in M.sea:
        st[M.station[h]] += 1
    a = []
    desc = {
        "North Vietnam": (
            "operational_area",
            "14.6; 12.2; 7.2",
            "North Vietnamese land hexes except the DMZ row",
        ),
        "DMZ": (
            "operational_area",
            "14.6.4",
            "one hex per column on the Ben Hai / 17th parallel line: North Vietnam "
            "for the Communist, I Corps for the Capitalist",
        ),
        "I Corps": (
            "operational_area",
            "14.6",
            "South Vietnam north of the Quang Ngai / Quang Tin-Kontum line",
        ),
        "II Corps": (
            "operational_area",
            "14.6",
            "Central Highlands and the central coast down to Binh Thuan",
        ),
        "III Corps": (
            "operational_area",
            "14.6",
            "the provinces around Saigon from Tay Ninh and Phuoc Long to Vung Tau",
        ),
        "IV Corps": ("operational_area", "14.6", "the Mekong Delta south of Long An"),
        "CMD": (
            "operational_area",
            "14.6; 14.6.1",
            "Capital Military District: Saigon and Gia Dinh; every US unit may enter",
        ),
        "Laos": ("operational_area", "14.6; 7.2", "Laotian land hexes"),
        "Cambodia": ("operational_area", "14.6; 7.2", "Cambodian land hexes"),
        "China": (
            "outside_area",
            "12.2; 13.1.1",
            "Chinese land (the PRC supply sources lie on its border); not one of the nine areas of 14.6 (R-MAP-17)",
        ),
        "Thailand": (
            "outside_area",
            "-",
            "Thai land west of the Mekong; not one of the nine areas of 14.6, so no unit's allowed areas include it (R-MAP-17)",
        ),
    }
    for name, (kind, rule, d) in desc.items():
        a.append(
            [
                name.lower().replace(" ", "_"),
                name,
                kind,
                rule,
                count[name],
                d,
                "reconstruction: hexes by country and Corps lines (tools/build_row_map.py, R-MAP-06/07)",
            ]
        )
    for name in ZONES:
        a.append(
            [
                name.lower().replace(" ", "_"),
                name,
                "special_zone",
                "13.1.2; 14.4.2",
                zc[name],
                f"South Vietnamese hexes in {ZONES[name]} (lon0, lat0, lon1, lat1) and the hex of its centre",
                "reconstruction: bounds of digest 5.3 (R-MAP-08)",
            ]
        )
    a.append(
        [
            "fdz",
            "VC/PAVN Free Deployment Zone",
            "special_zone",
            "14.6.3",
            len(M.fdz),
            "Laotian and Cambodian hexes east of the trail in the same hex row, up to the Vietnamese border",
            "reconstruction: digest 5.3 (R-MAP-10)",
        ]
    )
    a.append(
        [
            "hcm_trail",
            "Ho Chi Minh Trail",
            "special_zone",
            "14.7",
            len(M.trail),
            "trail hexes from Vinh and Dong Hoi to the Fishhook; termini 1-6 in places.csv",
            "reconstruction: digest 3.18/5.3 (R-MAP-09)",
        ]
    )
    a.append(
        [
            "yankee",
            "Yankee Station sea zone",
            "sea_zone",
            "11.2",
            st["Yankee"],
            f"all-sea hexes on or north of the Station line ({STATION_LAT} N)",
            "reconstruction: digest 5.3 (R-MAP-12)",
        ]
    )
    a.append(
        [
            "dixie",
            "Dixie Station sea zone",
            "sea_zone",
            "11.2",
            st["Dixie"],
            f"all-sea hexes south of the Station line ({STATION_LAT} N), Gulf of Thailand included",
            "reconstruction: digest 5.3 (R-MAP-12)",
        ]
    )
    a.append(
        [
            "station_line",
            "Station line",
            "line",
            "11.2; 5.3.1",
            0,
            f"latitude {STATION_LAT} N, the I/II Corps boundary on the coast",
            "reconstruction: digest 5.3 (R-MAP-12)",
        ]
    )
    a.append(
        [
            "yankee_station_box",
            "Yankee Station box",
            "box",
            "11.1",
            0,
            "off-map box of the 7th Fleet (about 17.5 N 108.5 E)",
            "reconstruction: digest 5.3 (R-MAP-12)",
        ]
    )
    a.append(
        [
            "dixie_station_box",
            "Dixie Station box",
            "box",
            "11.1",
            0,
            "off-map box of the 7th Fleet (about 11.0 N 110.0 E)",
            "reconstruction: digest 5.3 (R-MAP-12)",
        ]
    )
    write_csv(out / "areas.csv", ["id", "name", "kind", "rule", "hexes", "description", "source"], a)
    write_geojson(M, out)


# =========================================================================== pictures (checks, not committed)
TERRAIN_RGB = {
    "cultivated": (222, 232, 150),
    "clear": (240, 236, 210),
    "jungle": (90, 160, 90),
    "mountain": (150, 110, 80),
    "swamp": (120, 180, 170),
    "sea": (170, 200, 235),
}


def render(
    M: Map, path: Path, window: tuple[float, float, float, float] | None = None, scale: float = 2.2
) -> None:
    """Hexes by terrain, area outlines, DMZ, zones, trail, roads, rivers, places (PIL)."""
    if window:
        x0, y1 = to_xy(window[0], window[1])
        x1, y0 = to_xy(window[2], window[3])
    else:
        x0, y0, x1, y1 = 0, 0, (COLS + 1) * COL_MI, (ROWS + 1) * HEX_MI
    W, H = int((x1 - x0) * scale), int((y1 - y0) * scale)
    img = Image.new("RGB", (W, H), (255, 255, 255))
    d = ImageDraw.Draw(img)

    def P(x, y):
        return ((x - x0) * scale, (y - y0) * scale)

    for h in M.cells:
        poly = [P(x, y) for x, y in corners_xy(*parse_hex(h))]
        fill = TERRAIN_RGB[M.terrain[h]]
        d.polygon(poly, fill=fill, outline=(200, 200, 200) if scale > 4 else None)
    for h in M.cells:  # area and country boundaries
        ch = corners_xy(*parse_hex(h))
        for i, n in enumerate(_nb_by_edge(h)):
            if n is None or n not in M.area and h not in M.area:
                continue
            ah, an = M.area.get(h, "sea"), M.area.get(n, "sea")
            if ah != an and (ah != "sea" and an != "sea"):
                col = (
                    (200, 0, 0)
                    if "DMZ" in (ah, an)
                    else (0, 0, 0)
                    if M.country.get(h) != M.country.get(n)
                    else (120, 0, 160)
                )
                d.line([P(*ch[i]), P(*ch[(i + 1) % 6])], fill=col, width=2)
    for h in M.dmz | set(M.zone) | M.fdz:
        cx, cy = P(*centre_xy(*parse_hex(h)))
        col = (220, 0, 0) if h in M.dmz else (255, 140, 0) if h in M.zone else (160, 0, 160)
        r = 1.6 * scale
        d.ellipse([cx - r, cy - r, cx + r, cy + r], outline=col, width=2)
    for s, _ in M.river_side.items():
        a, b = s
        ca, cb = set(map(_rk, corners_xy(*parse_hex(a)))), corners_xy(*parse_hex(b))
        shared = [p for p in cb if _rk(p) in ca]
        if len(shared) == 2:
            d.line([P(*shared[0]), P(*shared[1])], fill=(20, 70, 220), width=max(2, int(scale / 1.5)))
    for kind, _, chain, _ in M.chains.values():
        col = (120, 60, 0) if kind == "trail" else (200, 20, 20)
        d.line([P(*centre_xy(*parse_hex(h))) for h in chain], fill=col, width=max(1, int(scale / 2)))
    for p in M.places:
        if not p["hex"]:
            continue
        x, y = centre_xy(*parse_hex(p["hex"]))
        r = {"city": 3, "town": 2}.get(p["kind"], 1.2) * (scale / 2.2)
        cx, cy = P(x, y)
        d.ellipse(
            [cx - r, cy - r, cx + r, cy + r],
            fill=(0, 0, 0) if p["kind"] in ("city", "town") else (90, 90, 90),
        )
        if p["kind"] == "city" or (window and p["kind"] in ("town", "base")) or p["terminus"]:
            d.text(
                (cx + r + 1, cy - 5),
                p["name"].split(" (")[0] + (f" T{p['terminus']}" if p["terminus"] else ""),
                fill=(0, 0, 0),
            )
    path.parent.mkdir(parents=True, exist_ok=True)
    img.save(path)


def _rk(p):
    return (round(p[0], 2), round(p[1], 2))


def _nb_by_edge(h: str) -> list[str | None]:
    """The neighbour across each edge i (corners i to i+1) of a flat-top hex."""
    c, r = parse_hex(h)
    cx, cy = centre_xy(c, r)
    out = []
    for i in range(6):
        ang = math.radians(60 * i + 30)
        x, y = cx + HEX_MI * math.cos(ang), cy + HEX_MI * math.sin(ang)
        nc, nr = hex_at_xy(x, y)
        out.append(hex_id(nc, nr) if 1 <= nc <= COLS and 1 <= nr <= ROWS else None)
    return out


def summary(M: Map) -> None:
    tc = defaultdict(int)
    for h in M.land:
        tc[M.terrain[h]] += 1
    ac = defaultdict(int)
    for h in M.land:
        ac[M.area[h]] += 1
    print(
        f"hexes {len(M.cells)}: land {len(M.land)} (coastal {len(M.coastal)}), sea {len(M.sea)}, lake {len(M.lake)}"
    )
    print("terrain:", dict(sorted(tc.items())))
    print("areas:", dict(sorted(ac.items())))
    print("DMZ:", sorted(M.dmz), "zones:", {z: sorted(h for h in M.zone if M.zone[h] == z) for z in ZONES})
    print("trail hexes", len(M.trail), "FDZ", len(M.fdz), "river sides", len(M.river_side))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--png", type=Path, help="draw the whole theatre to this PNG")
    ap.add_argument("--window", type=Path, help="draw the classroom window (I Corps, DMZ, Laotian panhandle)")
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument(
        "--check",
        action="store_true",
        help="build into a temporary folder and fail if the committed "
        "files differ (the data are up to date with this script)",
    )
    args = ap.parse_args(argv)
    M = build()
    summary(M)
    if args.check:
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            write(M, Path(tmp))
            stale = [n for n in BUILT if (Path(tmp) / n).read_bytes() != (OUT / n).read_bytes()]
        if stale:
            print("out of date with tools/build_row_map.py:", ", ".join(stale))
            return 1
        print("data/row/map is up to date")
    elif not args.no_write:
        write(M)
    if args.png:
        render(M, args.png)
    if args.window:
        render(M, args.window, window=(106.0, 14.3, 109.0, 18.2), scale=7.0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
