# Sample calls of stdlib::xml_encode; each result is a notify message.
notify { 'call 1: stdlib::xml_encode(\'<a href="x">Tom & Jerry</a>\')':
  message => stdlib::xml_encode('<a href="x">Tom & Jerry</a>'),
}
notify { 'call 2: stdlib::xml_encode(\'it\\\'s "q"\', \'attr\')':
  message => stdlib::xml_encode('it\'s "q"', 'attr'),
}
notify { 'call 3: stdlib::xml_encode(\'a < b\', \'text\')':
  message => stdlib::xml_encode('a < b', 'text'),
}
notify { 'call 4: stdlib::xml_encode(\'\')':
  message => stdlib::xml_encode(''),
}
notify { 'call 5: stdlib::xml_encode(\'héllo €\')':
  message => stdlib::xml_encode('héllo €'),
}
