/** Who is on site and the evacuation roll call (admin screen, issue 30). */
export const enPresence = {
  'tab.presence': 'On site',
  'presence.count': { one: '{n} person on site', other: '{n} people on site' },
  'presence.byEmployer': 'By employer',
  'presence.byGate': 'By entry gate',
  'presence.unknownEmployer': 'employer unknown',
  'presence.inside': 'inside {time}',
  'presence.enteredAt': 'in at {time}, {gate}',
  'presence.forgot': 'Entries of an earlier day without an exit (not counted)',
  'presence.nobody': 'Nobody on site.',
  'presence.stream.live': 'All terminals of the site, live.',
  'presence.stream.cut_off':
    "CUT OFF from the other terminals since {time}: this terminal's punches and the service's records only.",
  'presence.stream.off':
    "No link to the other terminals (no Redis): this terminal's punches and the service's records.",
  'presence.service': 'Service records read at {time}.',
  'presence.streamGap':
    'At {time} the site stream lost older entries: the day of {n} people is read again from the service.',
  'presence.unpublished': '{n} punches of this terminal not yet shared.',
  'rollcall.start': 'Start roll call',
  'rollcall.title': 'Evacuation roll call',
  'rollcall.counts': 'On list {listed} · Safe {safe} · Missing {missing}',
  'rollcall.cutOff': 'This terminal is cut off from the others: marks made there do not show here.',
  'rollcall.safe': 'Safe',
  'rollcall.markSafe': 'Mark safe',
  'rollcall.end': 'End roll call',
  'rollcall.ended': "Roll call ended; list kept with the day's records.",
  'rollcall.back': 'Back to the board',
  'rollcall.badgeHint': 'Badging at any terminal of the site marks safe.',
} as const;
