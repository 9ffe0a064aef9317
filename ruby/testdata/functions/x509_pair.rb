# A 3.x test function checking that an RSA key signed a certificate, the
# way stdlib's validate_x509_rsa_key_pair does, reporting each step.
module Puppet::Parser::Functions
  newfunction(:x509_pair, :type => :rvalue) do |args|
    require 'openssl'

    begin
      cert = OpenSSL::X509::Certificate.new(args[0])
    rescue OpenSSL::X509::CertificateError => e
      raise Puppet::ParseError, "Not a valid x509 certificate: #{e}"
    end
    begin
      key = OpenSSL::PKey::RSA.new(args[1])
    rescue OpenSSL::PKey::RSAError => e
      raise Puppet::ParseError, "Not a valid RSA key: #{e}"
    end
    [cert.class.to_s, key.class.to_s, key.private?, key.public?, cert.verify(key)]
  end
end
