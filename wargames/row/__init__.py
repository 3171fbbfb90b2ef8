"""Vietnam: Rumor of War (Compass Games 2019): the operational game of headquarters, supply and the air war.

Built on the shared core (issue #15).  Modules follow the rules text: ``hexmap`` (the theatre map, 4.x),
``tables`` and ``combat`` (8.x), and the rest as they land.  Rule ids are those of ``data/row/rules_index.csv``.
"""
