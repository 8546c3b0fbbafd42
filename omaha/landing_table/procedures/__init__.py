"""The procedures of D-Day at Omaha Beach: functions over the core, one module each.

``turn`` (start of a turn and the end phase), ``landing`` (the Amphibious
Landing Table), ``german`` (the German Fire Chart and Action Summary),
``orders`` (US orders and movement), ``attack`` (the US Attack Results Chart),
``barrage`` (the US Barrage Table), ``information`` (what is hidden from the US
and how a resample deals it anew). Which runs next is the state's business.
"""
