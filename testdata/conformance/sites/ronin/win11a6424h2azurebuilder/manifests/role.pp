# What ronin_puppet's Windows bootstrap applies: puppet apply -e 'include roles_profiles::roles::win11a6424h2azurebuilder'
include roles_profiles::roles::win11a6424h2azurebuilder
