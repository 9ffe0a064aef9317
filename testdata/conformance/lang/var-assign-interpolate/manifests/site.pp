$x = 'abc'
$xy = 'other'
notify { "plain=$x": }
notify { "braced=${x}y": }
notify { "unbraced=$xy": }
