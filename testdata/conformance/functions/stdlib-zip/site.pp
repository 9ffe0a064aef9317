# Sample calls of zip; each result is a notify message.
notify { 'call 1: zip([1, 2, 3], [4, 5, 6])':
  message => zip([1, 2, 3], [4, 5, 6]),
}
notify { 'call 2: zip([1, 2], [4, 5, 6])':
  message => zip([1, 2], [4, 5, 6]),
}
notify { 'call 3: zip([1, 2, 3], [4, 5, 6], true)':
  message => zip([1, 2, 3], [4, 5, 6], true),
}
notify { 'call 4: zip([], [])':
  message => zip([], []),
}
