/**
 * What the terminal says about the service it talks to: answering with errors, and the read
 * routes it does not have (the idle line, the admin connection tab, status and doctor).
 */
export const enService = {
  'conn.errors': { one: 'Service errors — {n} punch waiting', other: 'Service errors — {n} punches waiting' },
  'conn.errorsNone': 'Service errors — punches are saved here',
  'conn.state.errors': 'answering errors',
  'route.title': 'Not on the service',
  'route.absent': 'The service has no {route} ({status} since {time})',
  'route.next': 'asked again at {time}',
  'route.nextNow': 'asked again when next needed',
  'route.lacks.timesheets': "the employee's hours bank and the day's punches from the service are not shown",
  'route.lacks.workLeaves': 'leave notes are not shown',
  'route.lacks.times': 'punches whose delivery is in doubt go to a person (Queue tab) instead of being checked',
  'route.lacks.sites': "the site's name and time zone are not read; the roster still syncs",
} as const;
