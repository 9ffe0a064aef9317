notify { "a=${versioncmp('1.2.10', '1.2.9')} b=${versioncmp('2.0', '2.0')} c=${versioncmp('1.0', '1.0.1')} d=${versioncmp('1.0a', '1.0b')}": }
