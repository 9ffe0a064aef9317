# Sample calls of parseyaml; each result is a notify message.
notify { 'call 1: parseyaml("a: 1\\nb: [true, null, x]\\n")':
  message => parseyaml("a: 1\nb: [true, null, x]\n"),
}
notify { 'call 2: parseyaml("- 1\\n- 2.5\\n- héllo\\n")':
  message => parseyaml("- 1\n- 2.5\n- héllo\n"),
}
notify { 'call 3: parseyaml(\'{not: yaml: here\', {\'default\' => 1})':
  message => parseyaml('{not: yaml: here', {'default' => 1}),
}
notify { 'call 4: parseyaml(\'plain string\')':
  message => parseyaml('plain string'),
}
