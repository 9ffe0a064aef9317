notify { 'call 1: every 15 from 3': message => mcollective::crontimes(3, 15, 60) }
notify { 'call 2: period beyond an hour is capped at 59': message => mcollective::crontimes(10, 20, 120) }
notify { 'call 3: interval larger than period': message => mcollective::crontimes(0, 90, 60) }
notify { 'call 4: offset past the period': message => mcollective::crontimes(50, 5, 60) }
