"""Vietnam: Rumor of War (Compass Games 2019): the operational game of headquarters, supply and the air war.

Built on the shared core (issue #15).  Modules follow the rules text: ``hexmap`` (the theatre map, 4.x),
``tables`` and ``combat`` (5.x, 8.x), ``movement`` (4.x), ``control`` (14.6 and hex control), ``supply`` (7.x, 8.x
tracks, 14.4 LoC), ``hq`` (9.x missions and the activation steps), ``victory`` (12.1), ``pieces`` (what those rules
read of a unit or HQ), and the rest as they land.  Rule ids are those of ``data/row/rules_index.csv``.
"""
